package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/sim"
)

func newReplayCmd(a *app) *cobra.Command {
	var cf configFlags
	var game int64
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "replay",
		Short: "Print one game of a run turn by turn",
		Long: `Print game --game of the run keyed by --seed, turn by turn, with every hand. Give the same
rule, player, strategy, seat and option flags as the simulate run: the game is then exactly the
one that run played. The header names the options that differ from the rule set's defaults; a
drawn card is named on the line of the draw, as only its drawer sees it; after every turn the
hand sizes of all seats are shown. --json prints one JSON object per line instead: a header,
every event (kind, seat, card, ..., and the text above), the hand sizes after every turn, and
the result.`,
		Example: `  unosim replay --seed 1 --game 42
  unosim replay --seed 7 --game 3 --players 2 --strategy random --set stack-draw-two=true
  unosim replay --seed 1 --game 42 --json`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			cfg, err := cf.build()
			if err != nil {
				return err
			}
			warn(a, cf.warnings)
			g, bots, err := cfg.GameAndBots(game)
			if err != nil {
				return usageError{err}
			}
			defer bots.Close()
			var p replayPrinter
			if asJSON {
				p = &jsonReplay{enc: json.NewEncoder(a.stdout), g: g, players: cfg.Players}
			} else {
				p = &textReplay{w: a.stdout, g: g, players: cfg.Players}
			}
			p.header(cfg, game)
			// A strategy that fails (a bot that exits, hangs or answers
			// garbage; a move out of range) leaves the game to stand-in
			// moves: the replay stops at the failure and exits 1.
			failed := func() error {
				if err := g.Err(); err != nil {
					return err
				}
				return bots.Err()
			}
			g.SetLog(func(e engine.Event) {
				if failed() == nil {
					p.event(e)
				}
			})
			r := g.Play(cfg.Seed, uint64(game))
			if err := failed(); err != nil {
				return runtimeError{fmt.Errorf("%w; the replay stops there, without the game's end", err)}
			}
			p.result(r)
			return nil
		},
	}
	cf.register(cmd.Flags())
	int64Flag(cmd.Flags(), &game, "game", "a game index", 0, 0, sim.MaxGames-1, "index of the game in the run, from 0, in decimal")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per line: header, events, hand sizes after each turn, result")
	return cmd
}

// changedOptions are the options of cfg that differ from its rule set's
// defaults, as name=value in the order of 'unosim rules'.
func changedOptions(o engine.Options) [][2]string {
	d := engine.DefaultOptions(o.Rules)
	def := d.Values()
	var out [][2]string
	for i, kv := range o.Values() {
		if kv != def[i] {
			out = append(out, kv)
		}
	}
	return out
}

type replayPrinter interface {
	header(cfg *sim.Config, game int64)
	event(e engine.Event)
	result(r *engine.Result)
}

func handSizes(g *engine.Game, players int) []int {
	s := make([]int, players)
	for p := range s {
		s[p] = g.Hand(p).Size()
	}
	return s
}

// textReplay prints the game for people.
type textReplay struct {
	w       io.Writer
	g       *engine.Game
	players int
	drawn   []string // the cards of the draw in progress (EvDrawCard comes before its EvDraw)
	inTurn  bool     // a turn has begun and its hand sizes are not printed yet
}

func (t *textReplay) header(cfg *sim.Config, game int64) {
	fmt.Fprintf(t.w, "game %d of seed %d: %s rules, %d players\n", game, cfg.Seed, cfg.Options.Rules, cfg.Players)
	for s := 0; s < cfg.Players; s++ {
		fmt.Fprintf(t.w, "  seat %d: %s\n", s, cfg.LineUp[cfg.Position(game, s)])
	}
	if ch := changedOptions(cfg.Options); len(ch) == 0 {
		fmt.Fprintf(t.w, "options: the %s defaults\n", cfg.Options.Rules)
	} else {
		var s []string
		for _, kv := range ch {
			s = append(s, kv[0]+"="+kv[1])
		}
		fmt.Fprintf(t.w, "options (--set): %s\n", strings.Join(s, ", "))
	}
}

func (t *textReplay) sizes() {
	if !t.inTurn {
		return
	}
	t.inTurn = false
	var b strings.Builder
	for p, n := range handSizes(t.g, t.players) {
		if p > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "seat %d: %d", p, n)
	}
	fmt.Fprintf(t.w, "  hand sizes: %s\n", b.String())
}

func (t *textReplay) event(e engine.Event) {
	w := t.w
	switch e.Kind {
	case engine.EvDeal:
		fmt.Fprintf(w, "  %s: %v\n", e, t.g.Hand(e.Player))
	case engine.EvTurn, engine.EvRoundEnd:
		t.sizes()
		if e.Kind == engine.EvRoundEnd {
			fmt.Fprintf(w, "  %s\n", e)
			return
		}
		t.inTurn = true
		fmt.Fprintf(w, "%s (top %s, color %s, holds %v)\n", e, t.g.Top(), t.g.Color(), t.g.Hand(e.Player))
	case engine.EvDrawCard:
		t.drawn = append(t.drawn, e.Card.String())
	case engine.EvDraw:
		if len(t.drawn) == 0 {
			fmt.Fprintf(w, "  %s\n", e)
			break
		}
		fmt.Fprintf(w, "  %s: %s (seen by seat %d only)\n", e, strings.Join(t.drawn, ", "), e.Player)
		t.drawn = t.drawn[:0]
	default:
		fmt.Fprintf(w, "  %s\n", e)
	}
}

func (t *textReplay) result(r *engine.Result) {
	t.sizes()
	fmt.Fprintf(t.w, "result: %s after %d rounds and %d turns", r.Outcome, r.Rounds, r.Turns)
	if r.Winner >= 0 {
		fmt.Fprintf(t.w, ", seat %d wins", r.Winner)
	} else if r.Winners != 0 {
		fmt.Fprintf(t.w, ", shared win %b", r.Winners)
	}
	fmt.Fprintf(t.w, "; scores %v\n", r.Scores[:t.players])
}

// eventNames are the JSON names of the event kinds, indexed by kind.
var eventNames = [...]string{
	engine.EvRound: "round", engine.EvDeal: "deal", engine.EvStartCard: "start-card", engine.EvTurn: "turn",
	engine.EvPlay: "play", engine.EvColor: "color", engine.EvDraw: "draw", engine.EvDrawCard: "draw-card",
	engine.EvKeep: "keep", engine.EvUnoCall: "uno-call", engine.EvUnoMissed: "uno-missed", engine.EvCatch: "catch",
	engine.EvSkip: "skip", engine.EvReverse: "reverse", engine.EvChallenge: "challenge", engine.EvTakeBack: "take-back",
	engine.EvReshuffle: "reshuffle", engine.EvForgiven: "forgiven", engine.EvStack: "stack", engine.EvDeflect: "deflect",
	engine.EvJumpIn: "jump-in", engine.EvSwap: "swap", engine.EvRotate: "rotate", engine.EvPoint: "point",
	engine.EvPileFlip: "pile-flip", engine.EvPileStart: "pile-start", engine.EvPile: "pile", engine.EvPileTake: "pile-take",
	engine.EvLink: "link", engine.EvLinkEnd: "link-end", engine.EvSilence: "silence", engine.EvSpeak: "speak",
	engine.EvUnsilence: "unsilence", engine.EvOut: "out", engine.EvBlocked: "blocked", engine.EvTurnCap: "turn-cap",
	engine.EvRoundEnd: "round-end",
}

func eventName(k engine.EventKind) string {
	if int(k) < len(eventNames) && eventNames[k] != "" {
		return eventNames[k]
	}
	return fmt.Sprintf("event-%d", k)
}

// replayLine is one line of replay --json. Type is header, event,
// hand-sizes or result; the other fields belong to one of them.
type replayLine struct {
	Type    string   `json:"type"`
	Kind    string   `json:"kind,omitempty"`
	Seat    *int     `json:"seat,omitempty"`
	Other   *int     `json:"other,omitempty"`
	Card    string   `json:"card,omitempty"`
	Color   string   `json:"color,omitempty"`
	N       *int     `json:"n,omitempty"`
	N2      *int     `json:"n2,omitempty"`
	SeenBy  *int     `json:"seen_by,omitempty"` // a drawn card: the only seat that sees it
	Top     string   `json:"top,omitempty"`     // turn: the top discard
	Hand    []string `json:"hand,omitempty"`    // deal and turn: the seat's hand
	Text    string   `json:"text,omitempty"`
	Sizes   []int    `json:"hand_sizes,omitempty"`
	Outcome string   `json:"outcome,omitempty"`
	Rounds  *int     `json:"rounds,omitempty"`
	Turns   *int     `json:"turns,omitempty"`
	Winners []int    `json:"winners,omitempty"`
	Scores  []int    `json:"scores,omitempty"`
}

// replayHeader is the first line of replay --json.
type replayHeader struct {
	Type    string            `json:"type"` // header
	Game    int64             `json:"game"`
	Seed    uint64            `json:"seed"`
	Rules   string            `json:"rules"`
	Players int               `json:"players"`
	Options map[string]string `json:"options"` // the options changed from the rule set's defaults
	LineUp  []string          `json:"seats"`   // the strategy of each seat
}

// jsonReplay prints one JSON object per line.
type jsonReplay struct {
	enc     *json.Encoder
	g       *engine.Game
	players int
	inTurn  bool
}

func ptr[T any](v T) *T { return &v }

func (j *jsonReplay) header(cfg *sim.Config, game int64) {
	l := replayHeader{Type: "header", Game: game, Seed: cfg.Seed, Rules: cfg.Options.Rules.String(), Players: cfg.Players, Options: map[string]string{}}
	for _, kv := range changedOptions(cfg.Options) {
		l.Options[kv[0]] = kv[1]
	}
	for s := 0; s < cfg.Players; s++ {
		l.LineUp = append(l.LineUp, cfg.LineUp[cfg.Position(game, s)].String())
	}
	j.enc.Encode(l)
}

func handStrings(h engine.HandView) []string {
	s := strings.TrimSuffix(strings.TrimPrefix(h.String(), "["), "]")
	if s == "" {
		return []string{}
	}
	return strings.Split(s, ", ")
}

func (j *jsonReplay) sizes() {
	if j.inTurn {
		j.inTurn = false
		j.enc.Encode(replayLine{Type: "hand-sizes", Sizes: handSizes(j.g, j.players)})
	}
}

func (j *jsonReplay) event(e engine.Event) {
	if e.Kind == engine.EvTurn || e.Kind == engine.EvRoundEnd {
		j.sizes()
		j.inTurn = e.Kind == engine.EvTurn
	}
	l := replayLine{Type: "event", Kind: eventName(e.Kind), Seat: ptr(e.Player), N: ptr(e.N), Text: e.String()}
	switch e.Kind {
	case engine.EvCatch, engine.EvChallenge, engine.EvSwap, engine.EvPoint, engine.EvLink:
		l.Other = ptr(e.Other)
	case engine.EvStartCard, engine.EvPlay, engine.EvStack, engine.EvDeflect, engine.EvJumpIn, engine.EvPileFlip, engine.EvPile:
		l.Card = e.Card.String()
	case engine.EvDrawCard:
		l.Card, l.SeenBy = e.Card.String(), ptr(e.Player)
	case engine.EvColor, engine.EvPileStart:
		l.Color = e.Color.String()
	case engine.EvDraw:
		l.N2 = ptr(e.N2)
	case engine.EvDeal:
		l.Hand = handStrings(j.g.Hand(e.Player))
	case engine.EvTurn:
		l.Top, l.Color, l.Hand = j.g.Top().String(), j.g.Color().String(), handStrings(j.g.Hand(e.Player))
	}
	j.enc.Encode(l)
}

func (j *jsonReplay) result(r *engine.Result) {
	j.sizes()
	l := replayLine{Type: "result", Outcome: r.Outcome.String(), Rounds: ptr(r.Rounds), Turns: ptr(r.Turns), Winners: []int{}, Scores: append([]int{}, r.Scores[:j.players]...)}
	for s := range j.players {
		if r.Won(s) {
			l.Winners = append(l.Winners, s)
		}
	}
	j.enc.Encode(l)
}
