package engine

import (
	"slices"
	"strings"
	"testing"
)

// uniform chooses uniformly among every legal move, bluffs, voluntary
// draws, missed UNO calls and challenges included, so random games reach
// every rule.
type uniform struct{}

func (uniform) Decide(v *View, moves []Move) int { return v.Rand().IntN(len(moves)) }

// checked wraps a strategy and verifies card accounting at every decision.
type checked struct {
	t     testing.TB
	g     **Game
	inner Strategy
}

func (c checked) Decide(v *View, moves []Move) int {
	if len(moves) < 2 {
		c.t.Fatalf("decision %s asked with %d moves", v.Decision(), len(moves))
	}
	if err := (*c.g).checkCards(); err != nil {
		c.t.Fatalf("decision %s of seat %d: %v", v.Decision(), v.Seat(), err)
	}
	if v.Decision() != DecideDrawn && v.Drawn() != NoCard {
		c.t.Fatalf("decision %s of seat %d shows a drawn card", v.Decision(), v.Seat())
	}
	checkPlays(c.t, v, moves)
	if v.Decision() == DecideTurn {
		slow := slowTurnMoves(*c.g, v.Seat())
		if !slices.Equal(sorted(moves), sorted(slow)) {
			c.t.Fatalf("turn of seat %d: moves %v, slow generator %v", v.Seat(), moves, slow)
		}
	}
	return c.inner.Decide(v, moves)
}

func sorted(ms []Move) []Move {
	c := slices.Clone(ms)
	slices.Sort(c)
	return c
}

// checkPlays verifies View.Plays and View.PlayIndex against the moves: at a
// turn or a pile-up the Play moves come first, one per kind of Plays, at
// PlayIndex; at any other decision Plays is empty.
func checkPlays(t testing.TB, v *View, moves []Move) {
	t.Helper()
	d := v.Decision()
	if d != DecideTurn && d != DecidePileUp {
		if v.Plays() != 0 {
			t.Fatalf("decision %s: Plays() = %#x", d, v.Plays())
		}
		return
	}
	var listed uint64
	for i, m := range moves {
		if m.Kind() != MovePlay {
			continue
		}
		k := m.Card()
		if v.PlayIndex(k) != i {
			t.Fatalf("decision %s: play of %s at move %d, PlayIndex %d (moves %v)", d, k, i, v.PlayIndex(k), moves)
		}
		listed |= 1 << k
	}
	if listed != v.Plays() {
		t.Fatalf("decision %s: Plays() = %#x, moves %v", d, v.Plays(), moves)
	}
}

// slowTurnMoves is the obviously correct legal-move generator of a turn: every
// kind in hand tested against RULES.md section 3 one by one.
func slowTurnMoves(g *Game, p int) []Move {
	var ms []Move
	h := &g.hands[p]
	for k := Card(0); k < Card(NumCards); k++ {
		if h.Count(k) == 0 {
			continue
		}
		matches := k.IsWild() || k.Color() == g.color || (!g.top.IsWild() && k.Symbol() == g.top.Symbol())
		lastAction := g.t.opts.NoFinishOnAction && h.Size() == 1 && !k.IsNumber()
		if matches && !lastAction {
			ms = append(ms, PlayMove(k))
		}
	}
	if len(ms) == 0 || !g.t.opts.ForcedPlay {
		ms = append(ms, SimpleMove(MoveDraw))
	}
	return ms
}

// fastTurnMoves is the engine's own list of p's turn moves.
func fastTurnMoves(s *State, p int) []Move {
	plays := s.turnPlays(p)
	buf := make([]Move, 0, maxMoves)
	buf = buf[:listPlays(plays, buf[:cap(buf)])]
	if !s.t.opts.ForcedPlay || plays == 0 {
		buf = append(buf, SimpleMove(MoveDraw))
	}
	return buf
}

// playChecked plays one game with every invariant checked after every step
// and the fast move generator compared with the slow one.
func playChecked(t testing.TB, g *Game, seed, index uint64) {
	t.Helper()
	g.Reset(seed, index)
	for round := 0; ; round++ {
		g.StartRound()
		for steps := 0; !g.over; steps++ {
			if err := g.Check(); err != nil {
				t.Fatalf("game %d round %d step %d: %v", index, round, steps, err)
			}
			fast := fastTurnMoves(&g.State, g.current)
			slow := slowTurnMoves(g, g.current)
			slices.Sort(fast)
			slices.Sort(slow)
			if !slices.Equal(fast, slow) {
				t.Fatalf("game %d: turn moves %v, slow generator %v", index, fast, slow)
			}
			g.Step()
			if steps > 10*g.t.opts.MaxTurns+100 {
				t.Fatalf("game %d: round did not end", index)
			}
		}
		if err := g.Check(); err != nil {
			t.Fatalf("game %d round %d end: %v", index, round, err)
		}
		if g.outcome == Unfinished && g.turns < g.t.opts.MaxTurns {
			t.Fatalf("round of %d turns (max-turns %d) ended %s", g.turns, g.t.opts.MaxTurns, g.outcome)
		}
		if !g.EndRound() {
			break
		}
		if round > 10000 {
			t.Fatalf("match did not end")
		}
	}
	r := &g.res
	if r.Outcome == Finished && r.Winners == 0 && !(g.t.opts.Scoring == ScoreLosersAccumulate && g.t.opts.LosersOutcome == HighestLoses) {
		t.Fatalf("finished game without a winner: %+v", r)
	}
	if r.Outcome != Finished && r.Winners != 0 {
		t.Fatalf("%s game has winners", r.Outcome)
	}
}

func newChecked(t testing.TB, o Options, n int, inner Strategy) (*Game, error) {
	var g *Game
	ss := make([]Strategy, n)
	for i := range ss {
		ss[i] = checked{t, &g, inner}
	}
	g, err := NewGame(o, ss)
	return g, err
}

// optionValues lists every value worth trying for each option.
func optionValues() map[string][]string {
	vals := map[string][]string{}
	for _, s := range OptionSpecs() {
		switch {
		case s.Name == "rules":
		case s.Name == "deck":
			vals[s.Name] = []string{"classic", "encanto", "party", "classic,wild-swap-hands=4", "red-1=3,red-2=3,blue-1=3,blue-2=2,wild=2,wild-draw-four=2,red-skip=2,blue-draw-two=2,red-reverse=1"}
		case s.Enum != nil:
			vals[s.Name] = s.Enum
		default:
			vals[s.Name] = []string{"0", "1", "3"}
		}
	}
	vals["hand-size"] = []string{"1", "2", "7", "12"}
	vals["target"] = []string{"1", "50", "500"}
	vals["max-turns"] = []string{"1", "3", "40", "5000"}
	return vals
}

func TestRandomGamesEveryPlayerCount(t *testing.T) {
	for r := Classic; r < NumRuleSets; r++ {
		lo, hi := r.PlayerRange()
		for n := lo; n <= hi; n++ {
			g, err := newChecked(t, DefaultOptions(r), n, uniform{})
			if err != nil {
				t.Fatal(err)
			}
			for i := range 30 {
				playChecked(t, g, 7, uint64(i))
			}
		}
	}
}

func TestRandomGamesEveryOptionValue(t *testing.T) {
	vals := optionValues()
	played, refused := 0, 0
	for _, s := range OptionSpecs() {
		for _, v := range vals[s.Name] {
			for _, n := range []int{2, 3, 5} {
				o := DefaultOptions(Classic)
				if err := o.Set(s.Name, v); err != nil {
					t.Fatal(err)
				}
				g, err := newChecked(t, o, n, uniform{})
				if err != nil {
					refused++ // e.g. a deck too small for the table
					continue
				}
				for i := range 20 {
					playChecked(t, g, 11, uint64(i))
					played++
				}
			}
		}
	}
	// A refused configuration plays nothing: count them, so that a change
	// that refuses everything cannot pass unnoticed.
	if played < 2000 || refused > 10 {
		t.Fatalf("%d games played, %d configurations refused", played, refused)
	}
}

func TestRandomGamesOptionPairs(t *testing.T) {
	if testing.Short() {
		t.Skip("pairs of options take a few seconds")
	}
	vals := optionValues()
	specs := OptionSpecs()
	games, refused := 0, 0
	for i, a := range specs {
		for _, b := range specs[i+1:] {
			for _, va := range vals[a.Name] {
				for _, vb := range vals[b.Name] {
					o := DefaultOptions(Classic)
					if o.Set(a.Name, va) != nil || o.Set(b.Name, vb) != nil {
						t.Fatalf("setting %s=%s %s=%s", a.Name, va, b.Name, vb)
					}
					n := 2 + (len(va)+len(vb))%4
					g, err := newChecked(t, o, n, uniform{})
					if err != nil {
						refused++
						continue
					}
					for k := range 2 {
						playChecked(t, g, 13, uint64(k))
						games++
					}
				}
			}
		}
	}
	if games < 1000 || refused > games/10 {
		t.Fatalf("only %d games over option pairs, %d pairs refused", games, refused)
	}
}

// FuzzGame drives whole games from fuzzed seeds, table sizes and options.
func FuzzGame(f *testing.F) {
	for _, in := range fuzzSeeds {
		f.Add(in.seed, in.players, in.opts)
	}
	f.Fuzz(func(t *testing.T, seed uint64, players uint8, opts []byte) {
		fuzzGame(t, seed, players, opts)
	})
}

// The fuzz target's seed inputs are valid configurations that play.
func TestFuzzSeedsPlay(t *testing.T) {
	for _, in := range fuzzSeeds {
		if !fuzzGame(t, in.seed, in.players, in.opts) {
			t.Errorf("seed input %+v was refused", in)
		}
	}
}

var fuzzSeeds = []struct {
	seed    uint64
	players uint8
	opts    []byte
}{{1, 4, []byte{}}, {2, 2, []byte{1, 2, 3, 4, 5}}, {3, 10, []byte{7, 0, 9, 200, 13}}}

// fuzzGame plays one game of a fuzzed configuration and reports whether it
// was played (false: the options refused the combination).
func fuzzGame(t *testing.T, seed uint64, players uint8, opts []byte) bool {
	vals := optionValues()
	specs := OptionSpecs()
	r := RuleSet(players % 3)
	lo, hi := r.PlayerRange()
	n := lo + int(players)%(hi-lo+1)
	o := DefaultOptions(r)
	for i := 0; i+1 < len(opts); i += 2 {
		s := specs[int(opts[i])%len(specs)]
		vs := vals[s.Name]
		if len(vs) == 0 {
			continue
		}
		if err := o.Set(s.Name, vs[int(opts[i+1])%len(vs)]); err != nil {
			t.Fatal(err)
		}
	}
	// Keep each input quick: a match to 500 points of zero-point cards, or
	// 5000-turn rounds checked at every step, would stall the fuzzer.
	o.MaxTurns = min(o.MaxTurns, 400)
	o.Target = min(o.Target, 100)
	g, err := newChecked(t, o, n, uniform{})
	if err != nil {
		return false // an invalid combination is refused, which is the point
	}
	playChecked(t, g, seed, seed>>7)
	return true
}

func TestOptionsValidateNamesBoth(t *testing.T) {
	for _, c := range []struct{ sets, want []string }{
		{[]string{"stack-mixed=true", "stack-draw-four=true"}, []string{"stack-mixed", "stack-draw-two"}},
		{[]string{"stack-draw-two=true", "deflect-draw-two=true"}, []string{"stack-draw-two", "deflect-draw-two"}},
		{[]string{"play-for-places=true", "scoring=winner-takes"}, []string{"play-for-places", "scoring"}},
	} {
		o := testOptions(t, Classic, c.sets...)
		err := o.Validate(4)
		if err == nil {
			t.Fatalf("%v validated", c.sets)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error %q does not name %s", c.sets, err, w)
			}
		}
	}
}
