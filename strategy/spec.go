package strategy

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/unosim/unosim/engine"
)

// Parameter types.
const (
	Number = "number" // a decimal number from Min to Max
	Choice = "choice" // one of Choices; with a range too, a number from Min to Max
)

// Param declares one strategy parameter: its type, default and bounds. The
// bounds are what the tuner searches.
type Param struct {
	Name    string
	Type    string   // Number or Choice
	Default string   // in canonical form
	Min     float64  // a Number's (or a numeric Choice's) bounds, inclusive
	Max     float64  //
	Choices []string // a Choice's words
	Doc     string
}

// Numeric reports whether the parameter takes numbers.
func (p *Param) Numeric() bool { return p.Type == Number || p.Min < p.Max }

// Values describes the valid values for people, e.g. "a number from 0 to 1".
func (p *Param) Values() string {
	var parts []string
	if len(p.Choices) > 0 {
		parts = append(parts, strings.Join(p.Choices, ", "))
	}
	if p.Numeric() {
		parts = append(parts, "a number from "+FormatBound(p.Min)+" to "+FormatBound(p.Max))
	}
	return strings.Join(parts, ", or ")
}

// canonical checks v, as the user wrote it (errors quote it so), and
// returns its canonical form; words are matched in any case.
func (p *Param) canonical(v string) (string, error) {
	if w := strings.ToLower(v); slices.Contains(p.Choices, w) {
		return w, nil
	}
	if !p.Numeric() {
		return "", fmt.Errorf("%q is not one of %s", v, p.Values())
	}
	f, err := ParseDecimal(v)
	if err != nil {
		return "", fmt.Errorf("%q is not a decimal number (valid: %s)", v, p.Values())
	}
	if f < p.Min || f > p.Max {
		return "", fmt.Errorf("%q is out of range (valid: %s)", v, p.Values())
	}
	return formatNumber(f), nil
}

var decimal = regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`)

// ParseDecimal reads a finite number in decimal notation (an exponent
// allowed: 1e-3); strconv alone also reads hex (0x1p3), underscores, Inf
// and NaN.
func ParseDecimal(v string) (float64, error) {
	if !decimal.MatchString(v) {
		return 0, fmt.Errorf("not a decimal number")
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, fmt.Errorf("not a finite number")
	}
	return f, nil
}

func formatNumber(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// FormatBound writes a bound for people: whole numbers in digits with
// thousands separators, as the commands print counts (1,000,000, not 1e+06).
func FormatBound(f float64) string {
	if f != math.Trunc(f) || math.Abs(f) >= 1e15 {
		return formatNumber(f)
	}
	s := strconv.FormatInt(int64(math.Abs(f)), 10)
	var b strings.Builder
	if f < 0 {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Args are a specification's parameters, every one in canonical form
// (defaults filled in), for a strategy's constructor.
type Args struct{ vals map[string]string }

// String is parameter name's canonical value.
func (a Args) String(name string) string { return a.vals[name] }

// Float is parameter name's value as a number (NaN for a word).
func (a Args) Float(name string) float64 {
	f, err := strconv.ParseFloat(a.vals[name], 64)
	if err != nil {
		return math.NaN()
	}
	return f
}

// Info registers a strategy: its name, a one-line description, its
// parameters and its constructor, which makes a fresh instance from valid
// parameters (each worker and seat gets its own).
type Info struct {
	Name        string
	Description string
	Params      []Param
	New         func(Args) engine.Strategy
}

var (
	mu        sync.Mutex
	registry  []Info
	validName = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
)

// Register adds a strategy to the registry that every command uses. Call
// it before any command runs (from an init function or main).
func Register(in Info) error {
	mu.Lock()
	defer mu.Unlock()
	if !validName.MatchString(in.Name) || in.Name == "exec" {
		return fmt.Errorf("strategy name %q: want lower-case letters, digits and dashes, starting with a letter (and not exec)", in.Name)
	}
	if in.New == nil {
		return fmt.Errorf("strategy %s has no constructor", in.Name)
	}
	for _, r := range registry {
		if r.Name == in.Name {
			return fmt.Errorf("strategy %s is registered twice", in.Name)
		}
	}
	for i := range in.Params {
		p := &in.Params[i]
		if p.Type != Number && p.Type != Choice {
			return fmt.Errorf("strategy %s, parameter %s: type %q (valid: %s, %s)", in.Name, p.Name, p.Type, Number, Choice)
		}
		if p.Type == Number && !(p.Min < p.Max) {
			return fmt.Errorf("strategy %s, parameter %s: bounds %v to %v", in.Name, p.Name, p.Min, p.Max)
		}
		c, err := p.canonical(p.Default)
		if err != nil {
			return fmt.Errorf("strategy %s, parameter %s: default %v", in.Name, p.Name, err)
		}
		p.Default = c
	}
	in.Params = slices.Clone(in.Params)
	registry = append(registry, in)
	return nil
}

// MustRegister is Register for strategies known to be valid; it panics otherwise.
func MustRegister(in Info) {
	if err := Register(in); err != nil {
		panic(err)
	}
}

// Registered lists the registered strategies, built-ins first.
func Registered() []Info {
	mu.Lock()
	defer mu.Unlock()
	return slices.Clone(registry)
}

// Lookup finds a registered strategy by name.
func Lookup(name string) (Info, bool) {
	mu.Lock()
	defer mu.Unlock()
	for _, in := range registry {
		if in.Name == name {
			return in, true
		}
	}
	return Info{}, false
}

func names() string {
	var n []string
	for _, in := range Registered() {
		n = append(n, in.Name)
	}
	return strings.Join(append(n, "exec:COMMAND"), ", ")
}

// Spec is a parsed, validated strategy specification. New makes instances.
type Spec struct {
	name   string
	params string // canonical parameter list
	args   Args
	make   func(Args) engine.Strategy
}

// Name is the strategy's name.
func (s Spec) Name() string { return s.name }

// Param is the canonical value of parameter name.
func (s Spec) Param(name string) string { return s.args.String(name) }

// String is the canonical specification: the name, then every parameter
// that differs from its default, in the documented order.
func (s Spec) String() string {
	if s.name == "exec" {
		return "exec:" + s.params
	}
	if s.params == "" {
		return s.name
	}
	return s.name + ":" + s.params
}

// New makes a fresh instance; each worker needs its own.
func (s Spec) New() engine.Strategy { return s.make(s.args) }

// MustParse is Parse for specifications known to be valid; it panics otherwise.
func MustParse(spec string) Spec {
	s, err := Parse(spec)
	if err != nil {
		panic(err)
	}
	return s
}

// Parse reads a specification NAME[:KEY=VALUE,...], for example
// "heuristic:bluff=0.3,challenge=seen", or exec:COMMAND for a bot in
// another language. Unknown names, parameters and values are errors that
// list the valid choices.
func Parse(spec string) (Spec, error) {
	// Names and keys are matched in any case; messages quote them as
	// written.
	written, args, _ := strings.Cut(strings.TrimSpace(spec), ":")
	written = strings.TrimSpace(written)
	name := strings.ToLower(written)
	if name == "exec" {
		return parseExec(args)
	}
	info, ok := Lookup(name)
	if !ok {
		return Spec{}, fmt.Errorf("unknown strategy %q (valid: %s)", written, names())
	}
	vals := map[string]string{}
	for _, p := range info.Params {
		vals[p.Name] = p.Default
	}
	set := map[string]bool{}
	if strings.TrimSpace(args) != "" {
		for _, kv := range strings.Split(args, ",") {
			wk, v, ok := strings.Cut(kv, "=")
			wk, v = strings.TrimSpace(wk), strings.TrimSpace(v)
			k := strings.ToLower(wk)
			if !ok || k == "" || v == "" {
				return Spec{}, fmt.Errorf("strategy %s: parameter %q is not KEY=VALUE", name, kv)
			}
			p := findParam(info.Params, k)
			if p == nil {
				return Spec{}, fmt.Errorf("strategy %s: unknown parameter %q (valid: %s)", name, wk, paramNames(info.Params))
			}
			if set[k] {
				return Spec{}, fmt.Errorf("strategy %s: parameter %s given twice", name, k)
			}
			c, err := p.canonical(v)
			if err != nil {
				return Spec{}, fmt.Errorf("strategy %s: parameter %s: %w", name, k, err)
			}
			set[k], vals[k] = true, c
		}
	}
	var canon []string
	for _, p := range info.Params {
		if vals[p.Name] != p.Default {
			canon = append(canon, p.Name+"="+vals[p.Name])
		}
	}
	return Spec{name: name, params: strings.Join(canon, ","), args: Args{vals}, make: info.New}, nil
}

func findParam(ps []Param, name string) *Param {
	for i := range ps {
		if ps[i].Name == name {
			return &ps[i]
		}
	}
	return nil
}

func paramNames(ps []Param) string {
	if len(ps) == 0 {
		return "none: this strategy takes no parameters"
	}
	n := make([]string, len(ps))
	for i, p := range ps {
		n[i] = p.Name
	}
	return strings.Join(n, ", ")
}

func probability(name, def, doc string) Param {
	return Param{Name: name, Type: Number, Default: def, Min: 0, Max: 1, Doc: doc}
}

func init() {
	MustRegister(Info{
		Name:        "random",
		Description: "the baseline: a uniformly random playable card instance, never draws voluntarily, plays a playable drawn card, random colors, uniform among any other choice; by default never bluffs, never challenges, always calls UNO, never catches; its noise parameters are coins drawn only at the decision they concern, so that at 0 it plays exactly the baseline",
		Params: []Param{
			probability("bluff", "0", "when it holds an illegal Wild Draw Four it could play (in a turn, drawn, or as a stack), the chance that it counts the card as legal for that choice: one more instance in the uniform choice of a turn, played when drawn, one more answer in a response"),
			probability("challenge", "0", "offered a challenge of a Wild Draw Four, the chance that it challenges; otherwise it answers as the baseline"),
			probability("forget", "0", "the chance of not calling UNO"),
			probability("catch", "0", "offered a catch of a player who did not call UNO, the chance that it catches"),
		},
		New: func(a Args) engine.Strategy {
			return &Random{Bluff: a.Float("bluff"), Challenge: a.Float("challenge"), Forget: a.Float("forget"), Catch: a.Float("catch")}
		},
	})
	MustRegister(Info{
		Name:        "heuristic",
		Description: "a sensible player: keeps wilds, plays toward its longest color, dumps points and hits the next player when an opponent is close to going out, names its strongest color, stacks when it can, challenges by Bayes' rule and the expected cost in cards",
		Params:      heuristicParams("sound", "0"),
		New:         newHeuristic,
	})
	MustRegister(Info{
		Name:        "counter",
		Description: "a card counter: the heuristic plus the exact multiset of cards it has not seen and the likely voids of the others (a player who drew instead of playing on a color probably lacks it); plays the card the next player is least likely to answer (stuck), plays toward and names a color the next player lacks (void), challenges by Bayes' rule with exact counts, and with bluff=sound bluffs by the expected gain against the next player's likely challenge",
		Params: append(heuristicParams("sound", "0"),
			probability("trust", "0.9", "the belief that a player who drew instead of playing on a color holds none of it; it fades as that player draws"),
			Param{Name: "void", Type: Number, Default: "6", Min: 0, Max: 100, Doc: "the weight of the next player's chance to lack a color when choosing a card or naming a color (10 is one card of that color in hand)"},
			Param{Name: "stuck", Type: Number, Default: "1000", Min: 0, Max: 10000, Doc: "the weight of the chance that the next player holds nothing it could play on a card (no card of its color, of its symbol, or wild) when choosing among cards (10 is one card of that color in hand)"},
		),
		New: newCounter,
	})
	registerISMCTS() // after counter, which it may use as its rollout
}

// heuristicParams are the heuristic's parameters, shared by the counter,
// with the defaults of challenge and bluff.
func heuristicParams(challenge, bluff string) []Param {
	return []Param{
		{Name: "bluff", Type: Choice, Default: bluff, Choices: []string{"sound"}, Min: 0, Max: 1,
			Doc: "a number: the chance of playing a Wild Draw Four as a bluff when it could; sound: bluff when the expected gain in cards beats bluff-bias, the next player's challenge judged by the sound rule from what it could know"},
		{Name: "challenge", Type: Choice, Default: challenge, Choices: []string{"never", "always", "seen", "sound"}, Min: 0, Max: 1,
			Doc: "when to challenge a Wild Draw Four: sound weighs the chance of a bluff by Bayes' rule (the unseen cards, the player's hand size, the reference color, the assumed bluff-rate) against the cost in cards (a lost challenge draws challenge-penalty, a won one makes the bluffer draw 4, not challenging draws 4); seen challenges when the chance that the hand held a matching card exceeds threshold; a number is a fixed chance"},
		probability("threshold", "0.3", "with challenge=seen: challenge when the estimated chance of a matching card exceeds this"),
		probability("forget", "0", "chance of not calling UNO"),
		probability("catch", "1", "chance of catching a player who did not call UNO"),
		probability("jump", "1", "chance of jumping in when it can (jump-in rules)"),
		{Name: "speed", Type: Number, Default: "1", Min: 1e-9, Max: 1e9, Doc: "reaction speed in jump-in races (relative to others)"},
		probability("bluff-rate", formatNumber(DefaultBluffRate), "the sound rules' assumed chance that a player plays a Wild Draw Four it holds illegally, relative to one it may play legally"),
		{Name: "challenge-bias", Type: Number, Default: "0", Min: -20, Max: 20, Doc: "with challenge=sound: cards added to the expected cost of challenging (positive: challenge less)"},
		{Name: "bluff-bias", Type: Number, Default: "0", Min: -20, Max: 20, Doc: "with bluff=sound: cards the expected gain of a bluff must exceed (positive: bluff less)"},
	}
}

func heuristicFrom(a Args) Heuristic {
	h := DefaultHeuristic()
	h.Threshold, h.Forget = a.Float("threshold"), a.Float("forget")
	h.Catch, h.Jump, h.Speed = a.Float("catch"), a.Float("jump"), a.Float("speed")
	h.BluffRate, h.ChallengeBias, h.BluffBias = a.Float("bluff-rate"), a.Float("challenge-bias"), a.Float("bluff-bias")
	if a.String("bluff") == "sound" {
		h.BluffSound = true
	} else {
		h.Bluff = a.Float("bluff")
	}
	switch c := a.String("challenge"); c {
	case "never":
		h.Challenge = ChallengeNever
	case "always":
		h.Challenge = ChallengeAlways
	case "seen":
		h.Challenge = ChallengeSeen
	case "sound":
		h.Challenge = ChallengeSound
	default:
		h.Challenge, h.ChallengeP = ChallengeRandom, a.Float("challenge")
	}
	return h
}

func newHeuristic(a Args) engine.Strategy {
	h := heuristicFrom(a)
	return &h
}

func newCounter(a Args) engine.Strategy {
	c := DefaultCounter()
	c.Heuristic = heuristicFrom(a)
	c.Trust, c.Void, c.Stuck = a.Float("trust"), a.Float("void"), a.Float("stuck")
	return &c
}

// Available lists the registered strategies (Registered).
func Available() []Info { return Registered() }
