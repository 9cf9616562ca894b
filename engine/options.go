package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxPlayers is the largest table any rule set allows (UNO Party!).
const MaxPlayers = 16

// RuleSet selects a deck and the defaults of every option (RULES.md section 0).
type RuleSet uint8

// The rule sets.
const (
	Classic RuleSet = iota
	Encanto
	Party
	NumRuleSets
)

var ruleSetNames = [NumRuleSets]string{"classic", "encanto", "party"}

func (r RuleSet) String() string {
	if r < NumRuleSets {
		return ruleSetNames[r]
	}
	return fmt.Sprintf("RuleSet(%d)", uint8(r))
}

// ParseRuleSet reads a rule set name.
func ParseRuleSet(s string) (RuleSet, error) {
	for r := RuleSet(0); r < NumRuleSets; r++ {
		if s == ruleSetNames[r] {
			return r, nil
		}
	}
	return 0, fmt.Errorf("unknown rule set %q (valid: %s)", s, strings.Join(ruleSetNames[:], ", "))
}

// PlayerRange is the number of players a rule set allows.
func (r RuleSet) PlayerRange() (lo, hi int) {
	if r == Party {
		return 2, 16
	}
	return 2, 10
}

// Enumerated option values. Each type's values are listed in the same order
// as their names in the option table.
type (
	DealerRule       uint8 // dealer
	FirstPlayerRule  uint8 // first-player
	StartCardRule    uint8 // start-card
	DrawRule         uint8 // draw
	TwoPlayerReverse uint8 // two-player-reverse
	WD4Rule          uint8 // wd4-legal
	Scoring          uint8 // scoring
	LosersOutcome    uint8 // losers-outcome
	JumpInRule       uint8 // jump-in
)

// Option values.
const (
	DealerRotate DealerRule = iota
	DealerRandom
	DealerHighCard
)
const (
	LeftOfDealer FirstPlayerRule = iota
	DealerStarts
)
const (
	StartOfficial StartCardRule = iota
	StartFlipUntilNumber
)
const (
	DrawOne DrawRule = iota
	DrawUntilPlayable
)
const (
	ReverseSkips TwoPlayerReverse = iota
	ReverseOnly
)
const (
	NoColorMatch WD4Rule = iota
	NoColorMatchOrWild
	NoPlayable
)
const (
	ScoreSingle Scoring = iota
	ScoreWinnerTakes
	ScoreLosersAccumulate
)
const (
	LowestWins LosersOutcome = iota
	HighestLoses
)
const (
	JumpOff JumpInRule = iota
	JumpNumbers
	JumpAny
)

// Options holds every option of RULES.md by value; its fields are read on the
// hot path, so they are plain values. Build one with DefaultOptions, change
// it with Set, and check it with Validate.
type Options struct {
	Rules            RuleSet
	Deck             Deck
	HandSize         int
	Dealer           DealerRule
	FirstPlayer      FirstPlayerRule
	StartCard        StartCardRule
	Draw             DrawRule
	ForcedPlay       bool
	MustPlayDrawn    bool
	TwoPlayerReverse TwoPlayerReverse
	WD4Legal         WD4Rule
	ChallengePenalty int
	GuiltyTakesBack  bool
	UnoPenalty       int
	NoFinishOnAction bool
	Scoring          Scoring
	Target           int
	LosersOutcome    LosersOutcome
	PlayForPlaces    bool
	JumpIn           JumpInRule
	StackDrawTwo     bool
	StackDrawFour    bool
	StackMixed       bool
	DeflectDrawTwo   bool
	DeflectDrawFour  bool
	DeflectSkip      bool
	SevenZero        bool
	MaxTurns         int
}

// DefaultOptions returns the defaults of a rule set (RULES.md section 0).
func DefaultOptions(r RuleSet) Options {
	o := Options{
		Rules:            r,
		Deck:             ClassicDeck(),
		HandSize:         7,
		ChallengePenalty: 6,
		UnoPenalty:       2,
		Target:           500,
		MaxTurns:         5000,
	}
	switch r {
	case Encanto:
		o.Deck = EncantoDeck()
		o.StartCard = StartFlipUntilNumber
		o.WD4Legal = NoColorMatchOrWild
	case Party:
		o.Deck = PartyDeck()
		o.StartCard = StartFlipUntilNumber
		o.WD4Legal = NoColorMatchOrWild
		o.JumpIn = JumpNumbers
	}
	return o
}

// OptionSpec describes one option for listings and for Set and Get.
type OptionSpec struct {
	Name   string
	Values string   // allowed values, as shown to users
	Enum   []string // the allowed values of an enumerated or boolean option
	Doc    string
	get    func(o *Options) string
	set    func(o *Options, v string) error
}

// Default is the option's default value under a rule set.
func (s *OptionSpec) Default(r RuleSet) string {
	o := DefaultOptions(r)
	return s.get(&o)
}

func enumSpec[T ~uint8](name, doc string, names []string, field func(o *Options) *T) OptionSpec {
	return OptionSpec{
		Name: name, Values: strings.Join(names, ", "), Enum: names, Doc: doc,
		get: func(o *Options) string { return names[*field(o)] },
		set: func(o *Options, v string) error {
			for i, n := range names {
				if v == n {
					*field(o) = T(i)
					return nil
				}
			}
			return fmt.Errorf("option %s: invalid value %q (valid: %s)", name, v, strings.Join(names, ", "))
		},
	}
}

func boolSpec(name, doc string, field func(o *Options) *bool) OptionSpec {
	return OptionSpec{
		Name: name, Values: "true, false", Enum: []string{"true", "false"}, Doc: doc,
		get: func(o *Options) string { return strconv.FormatBool(*field(o)) },
		set: func(o *Options, v string) error {
			b, err := strconv.ParseBool(v)
			if err != nil || (v != "true" && v != "false") {
				return fmt.Errorf("option %s: invalid value %q (valid: true, false)", name, v)
			}
			*field(o) = b
			return nil
		},
	}
}

func intSpec(name, doc string, min int, field func(o *Options) *int) OptionSpec {
	return OptionSpec{
		Name: name, Values: fmt.Sprintf("integer >= %d", min), Doc: doc,
		get: func(o *Options) string { return strconv.Itoa(*field(o)) },
		set: func(o *Options, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < min {
				return fmt.Errorf("option %s: invalid value %q (valid: an integer >= %d)", name, v, min)
			}
			*field(o) = n
			return nil
		},
	}
}

var scoringNames = []string{"single", "winner-takes", "losers-accumulate"}

// optionSpecs is the option table, in the order of RULES.md section 0.
var optionSpecs = []OptionSpec{
	{
		Name: "rules", Values: "classic, encanto, party", Enum: ruleSetNames[:],
		Doc: "selects the deck and the defaults of every other option",
		get: func(o *Options) string { return o.Rules.String() },
		set: func(o *Options, v string) error {
			if _, err := ParseRuleSet(v); err != nil {
				return err
			}
			return fmt.Errorf("option rules: the rule set selects every default, so choose it first (--rules %s), not with --set", v)
		},
	},
	{
		Name: "deck", Values: "a deck: classic, encanto or party, then CARD=COUNT changes (e.g. classic,wild-swap-hands=4)",
		Doc: "the cards in play, as counts per kind",
		get: func(o *Options) string { return o.Deck.String() },
		set: func(o *Options, v string) error {
			d, err := ParseDeck(v)
			if err != nil {
				return fmt.Errorf("option deck: %w", err)
			}
			o.Deck = d
			return nil
		},
	},
	intSpec("hand-size", "cards dealt to each player", 1, func(o *Options) *int { return &o.HandSize }),
	enumSpec("dealer", "who deals: seat n-1 first then passing left, a random seat each round, or the high card (first round; then passing left)",
		[]string{"rotate", "random", "high-card"}, func(o *Options) *DealerRule { return &o.Dealer }),
	enumSpec("first-player", "who acts first: the player left of the dealer, or the dealer",
		[]string{"left-of-dealer", "dealer"}, func(o *Options) *FirstPlayerRule { return &o.FirstPlayer }),
	enumSpec("start-card", "the first discard: official effects, or flip until a number card",
		[]string{"official", "flip-until-number"}, func(o *Options) *StartCardRule { return &o.StartCard }),
	enumSpec("draw", "a player who draws takes one card, or draws until a playable card",
		[]string{"one", "until-playable"}, func(o *Options) *DrawRule { return &o.Draw }),
	boolSpec("forced-play", "a player holding a playable card must play one", func(o *Options) *bool { return &o.ForcedPlay }),
	boolSpec("must-play-drawn", "a playable drawn card must be played (an illegal Wild Draw Four excepted)", func(o *Options) *bool { return &o.MustPlayDrawn }),
	enumSpec("two-player-reverse", "with two players a Reverse acts as a Skip, or only changes direction",
		[]string{"skip", "none"}, func(o *Options) *TwoPlayerReverse { return &o.TwoPlayerReverse }),
	enumSpec("wd4-legal", "when a Wild Draw Four is legal: no card of the color, no such card nor other wild, or no playable card",
		[]string{"no-color-match", "no-color-match-or-wild", "no-playable"}, func(o *Options) *WD4Rule { return &o.WD4Legal }),
	intSpec("challenge-penalty", "cards a challenger of a legal Wild Draw Four draws", 0, func(o *Options) *int { return &o.ChallengePenalty }),
	boolSpec("guilty-takes-back", "a player caught bluffing takes the Wild Draw Four back, draws 4 and the color reverts", func(o *Options) *bool { return &o.GuiltyTakesBack }),
	intSpec("uno-penalty", "cards drawn by a player caught not calling UNO", 0, func(o *Options) *int { return &o.UnoPenalty }),
	boolSpec("no-finish-on-action", "the last card put down must be a number card", func(o *Options) *bool { return &o.NoFinishOnAction }),
	enumSpec("scoring", "one hand, rounds won to a target, or losers accumulating their points",
		scoringNames, func(o *Options) *Scoring { return &o.Scoring }),
	intSpec("target", "points that end a match", 1, func(o *Options) *int { return &o.Target }),
	enumSpec("losers-outcome", "with losers-accumulate: the lowest total wins, or everyone at or over the target loses",
		[]string{"lowest-wins", "highest-loses"}, func(o *Options) *LosersOutcome { return &o.LosersOutcome }),
	boolSpec("play-for-places", "in a single game the others play on for places", func(o *Options) *bool { return &o.PlayForPlaces }),
	enumSpec("jump-in", "out-of-turn play of a card identical to the top discard: off, number cards, any colored card",
		[]string{"off", "numbers", "any"}, func(o *Options) *JumpInRule { return &o.JumpIn }),
	boolSpec("stack-draw-two", "a Draw Two may be stacked on a Draw Two", func(o *Options) *bool { return &o.StackDrawTwo }),
	boolSpec("stack-draw-four", "a Wild Draw Four may be stacked on a Wild Draw Four", func(o *Options) *bool { return &o.StackDrawFour }),
	boolSpec("stack-mixed", "Draw Two and Wild Draw Four stack on each other (needs both stack options)", func(o *Options) *bool { return &o.StackMixed }),
	boolSpec("deflect-draw-two", "a Draw Two passes a Draw Two on without growing", func(o *Options) *bool { return &o.DeflectDrawTwo }),
	boolSpec("deflect-draw-four", "a Draw Two of the named color turns a Wild Draw Four into a Draw Two for the next player", func(o *Options) *bool { return &o.DeflectDrawFour }),
	boolSpec("deflect-skip", "the identical Skip passes a Skip on", func(o *Options) *bool { return &o.DeflectSkip }),
	boolSpec("seven-zero", "a 7 swaps hands with a chosen player; a 0 passes every hand on", func(o *Options) *bool { return &o.SevenZero }),
	intSpec("max-turns", "turns after which a round ends unfinished", 1, func(o *Options) *int { return &o.MaxTurns }),
}

// OptionSpecs lists every option in the order of RULES.md. The caller must
// not modify the result.
func OptionSpecs() []OptionSpec { return optionSpecs }

// OptionNames lists every option name.
func OptionNames() []string {
	names := make([]string, len(optionSpecs))
	for i := range optionSpecs {
		names[i] = optionSpecs[i].Name
	}
	return names
}

func findOption(name string) (*OptionSpec, error) {
	for i := range optionSpecs {
		if optionSpecs[i].Name == name {
			return &optionSpecs[i], nil
		}
	}
	return nil, fmt.Errorf("unknown option %q (valid: %s)", name, strings.Join(OptionNames(), ", "))
}

// Set changes one option by its RULES.md name and a value as written there.
func (o *Options) Set(name, value string) error {
	s, err := findOption(strings.TrimSpace(name))
	if err != nil {
		return err
	}
	return s.set(o, strings.TrimSpace(value))
}

// Get returns an option's value as Set reads it.
func (o *Options) Get(name string) (string, error) {
	s, err := findOption(name)
	if err != nil {
		return "", err
	}
	return s.get(o), nil
}

// Values lists every option with its value, in table order.
func (o *Options) Values() [][2]string {
	out := make([][2]string, len(optionSpecs))
	for i := range optionSpecs {
		out[i] = [2]string{optionSpecs[i].Name, optionSpecs[i].get(o)}
	}
	return out
}

// Validate checks the options for a table of players: ranges, the deck, and
// combinations that contradict each other (the message names both options).
func (o *Options) Validate(players int) error {
	if o.Rules >= NumRuleSets {
		return fmt.Errorf("unknown rule set %d", o.Rules)
	}
	if lo, hi := o.Rules.PlayerRange(); players < lo || players > hi {
		return fmt.Errorf("players: %d is out of range for %s (valid: %d to %d)", players, o.Rules, lo, hi)
	}
	for _, c := range []struct {
		name string
		v    int
		min  int
	}{{"hand-size", o.HandSize, 1}, {"challenge-penalty", o.ChallengePenalty, 0}, {"uno-penalty", o.UnoPenalty, 0}, {"target", o.Target, 1}, {"max-turns", o.MaxTurns, 1}} {
		if c.v < c.min {
			return fmt.Errorf("option %s: %d is below the minimum %d", c.name, c.v, c.min)
		}
	}
	if err := o.Deck.Validate(players, o.HandSize); err != nil {
		return fmt.Errorf("option deck (with hand-size=%d and %d players): %w", o.HandSize, players, err)
	}
	type pair struct {
		a, b   string
		clash  bool
		reason string
	}
	for _, p := range []pair{
		{"stack-mixed=true", "stack-draw-two=false", o.StackMixed && !o.StackDrawTwo, "mixed stacking needs both stack options"},
		{"stack-mixed=true", "stack-draw-four=false", o.StackMixed && !o.StackDrawFour, "mixed stacking needs both stack options"},
		{"stack-draw-two=true", "deflect-draw-two=true", o.StackDrawTwo && o.DeflectDrawTwo, "a Draw Two on a Draw Two cannot both stack and deflect"},
		{"stack-draw-four=true", "deflect-draw-four=true", o.StackDrawFour && o.DeflectDrawFour, "a Wild Draw Four cannot be both stacked on and deflected"},
		{"stack-mixed=true", "deflect-draw-four=true", o.StackMixed && o.DeflectDrawFour, "a Draw Two on a Wild Draw Four cannot both stack and deflect"},
		{"play-for-places=true", "scoring=" + scoringNames[o.Scoring], o.PlayForPlaces && o.Scoring != ScoreSingle, "places are played only in single games"},
	} {
		if p.clash {
			return fmt.Errorf("options %s and %s contradict each other: %s", p.a, p.b, p.reason)
		}
	}
	return nil
}
