package strategy_test

import (
	"math"
	"testing"

	"github.com/unosim/unosim/engine"
)

// randomTables are the tables on which the random strategy's card play is
// checked: every Wild Draw Four legality rule, two to six players.
var randomTables = []struct {
	name    string
	rules   engine.RuleSet
	players int
	sets    []string
	games   int
}{
	{"classic-4p", engine.Classic, 4, nil, 10000},
	{"classic-2p-no-playable", engine.Classic, 2, []string{"wd4-legal=no-playable"}, 6000},
	{"encanto-3p", engine.Encanto, 3, nil, 5000},
	{"party-6p", engine.Party, 6, nil, 1500},
	{"classic-3p-forced", engine.Classic, 3, []string{"forced-play=true", "must-play-drawn=true", "no-finish-on-action=true"}, 3000},
}

// On its turn, random plays a uniformly random playable card instance: two
// copies of a kind are twice as likely as one, an illegal Wild Draw Four is
// never chosen (no bluff) and it draws only when it has nothing else.
func TestRandomTurnPlaysUniformInstances(t *testing.T) {
	var doubled, doubledIfByKind poissonBinomial
	var oneVsTwo, oneVsTwoDoubled int // turns offering exactly two kinds, held once and twice
	for ti, tc := range randomTables {
		var bad []string
		obs := func(seat int, v *engine.View, moves []engine.Move, choice int) {
			if v.Decision() != engine.DecideTurn {
				return
			}
			kinds, n := instanceCounts(v, moves)
			total, playable, withTwo := 0, 0, 0
			for i, k := range kinds {
				if k == wd4 && !v.WD4Legal() {
					n[i] = 0 // a bluff: never
				}
				total += n[i]
				if n[i] > 0 {
					playable++
					if n[i] >= 2 {
						withTwo++
					}
				}
			}
			m := moves[choice]
			if total == 0 { // not asked in practice: a bluff implies another play
				if m.Kind() != engine.MoveDraw {
					bad = append(bad, "chose "+m.String()+" with no legal play")
				}
				return
			}
			if m.Kind() != engine.MovePlay {
				bad = append(bad, "chose "+m.String()+" holding a legal play")
				return
			}
			if m.Card() == wd4 && !v.WD4Legal() {
				bad = append(bad, "bluffed a wild-draw-four")
				return
			}
			chosenN := n[choice] // plays come first, in the order of kinds
			if withTwo == 0 || withTwo == playable {
				return // every kind held equally often: nothing to tell apart
			}
			p := 0.0
			for _, c := range n {
				if c >= 2 {
					p += float64(c) / float64(total)
				}
			}
			doubled.add(p, chosenN >= 2)
			doubledIfByKind.add(float64(withTwo)/float64(playable), chosenN >= 2)
			if playable == 2 && len(n) == 2 && n[0]+n[1] == 3 {
				oneVsTwo++
				if chosenN == 2 {
					oneVsTwoDoubled++
				}
			}
		}
		g := table(t, options(t, tc.rules, tc.sets...), same("random", tc.players), obs)
		c := counts(g, 100+uint64(ti), tc.games)
		if len(bad) > 0 {
			t.Errorf("%s: %d bad turns, first: %s", tc.name, len(bad), bad[0])
		}
		if c[engine.CountVoluntaryDraw] != 0 {
			t.Errorf("%s: %d voluntary draws, want 0", tc.name, c[engine.CountVoluntaryDraw])
		}
		if c[engine.CountBluff] != 0 {
			t.Errorf("%s: %d bluffs, want 0", tc.name, c[engine.CountBluff])
		}
	}
	// The chosen kind is held twice or more as often as instance counting
	// predicts (a Poisson-binomial sum over the turns that mix kinds held
	// once and held more).
	if z := doubled.z(); z > zMax || z < -zMax {
		t.Errorf("chose a kind held twice or more %d times in %d turns, expected %.1f (sd %.1f): z = %.2f",
			doubled.observed, doubled.trials, doubled.mean, math.Sqrt(doubled.variance), z)
	}
	// The same turns tell instance counting from a uniform choice of kind:
	// the test has the power to see the difference.
	if z := doubledIfByKind.z(); z > -zMax && z < zMax {
		t.Errorf("the turns cannot tell instance counting from uniform kinds: z = %.2f against kinds", z)
	}
	// Two playable kinds held once and twice: the doubled one is chosen
	// with probability 2/3.
	if oneVsTwo < 500 {
		t.Fatalf("only %d turns with kinds held once and twice", oneVsTwo)
	}
	if z := binomialZ(oneVsTwoDoubled, oneVsTwo, 2.0/3); z > zMax || z < -zMax {
		t.Errorf("of two kinds held once and twice the doubled one was chosen %d of %d times, want 2/3: z = %.2f",
			oneVsTwoDoubled, oneVsTwo, z)
	}
	t.Logf("doubled: %d of %d turns, expected %.1f; 1-vs-2: %d of %d", doubled.observed, doubled.trials, doubled.mean, oneVsTwoDoubled, oneVsTwo)
}

// A drawn playable card is played, unless it is a Wild Draw Four that would
// be a bluff, which is kept.
func TestRandomPlaysDrawnCardUnlessBluff(t *testing.T) {
	var played, keptBluff int
	var bad []string
	obs := func(seat int, v *engine.View, moves []engine.Move, choice int) {
		if v.Decision() != engine.DecideDrawn {
			return
		}
		bluff := v.Drawn() == wd4 && !v.WD4Legal()
		switch k := moves[choice].Kind(); {
		case bluff && k != engine.MoveKeep:
			bad = append(bad, "played a drawn wild-draw-four as a bluff")
		case !bluff && k != engine.MovePlay:
			bad = append(bad, "kept a playable drawn "+v.Drawn().String())
		case bluff:
			keptBluff++
		default:
			played++
		}
	}
	// Random draws only when it cannot play, so a Wild Draw Four it draws
	// is legal, except when its last card is an action card it may not
	// finish on (no-finish-on-action): then it holds the current color.
	for ti, sets := range [][]string{nil, {"draw=until-playable"}, {"wd4-legal=no-playable"}, {"no-finish-on-action=true"}} {
		g := table(t, options(t, engine.Classic, sets...), same("random", 4), obs)
		c := counts(g, 200+uint64(ti), 5000)
		if c[engine.CountBluff] != 0 {
			t.Errorf("%v: %d bluffs", sets, c[engine.CountBluff])
		}
	}
	if len(bad) > 0 {
		t.Errorf("%d bad choices of a drawn card, first: %s", len(bad), bad[0])
	}
	if played < 1000 || keptBluff < 10 {
		t.Errorf("too few drawn cards to judge: %d played, %d bluffs kept", played, keptBluff)
	}
	t.Logf("%d drawn cards played, %d would-be bluffs kept", played, keptBluff)
}

// Random names a color uniformly at random, whatever it holds.
func TestRandomNamesColorsUniformly(t *testing.T) {
	var named [engine.NumColors]int
	strongest, unique := 0, 0 // choices of the one color held most, among hands with one
	obs := func(seat int, v *engine.View, moves []engine.Move, choice int) {
		if v.Decision() != engine.DecideColor {
			return
		}
		c := moves[choice].Color()
		named[c]++
		best, n, ties := engine.NoColor, 0, 0
		for col := engine.Red; col < engine.NoColor; col++ {
			switch k := v.Hand().ColorCount(col); {
			case k > n:
				best, n, ties = col, k, 1
			case k == n:
				ties++
			}
		}
		if n > 0 && ties == 1 {
			unique++
			if c == best {
				strongest++
			}
		}
	}
	g := table(t, options(t, engine.Classic), same("random", 4), obs)
	counts(g, 300, 10000)
	total := 0
	for _, n := range named {
		total += n
	}
	chi2 := 0.0
	e := float64(total) / engine.NumColors
	for _, n := range named {
		chi2 += (float64(n) - e) * (float64(n) - e) / e
	}
	if total < 5000 {
		t.Fatalf("only %d colors named", total)
	}
	if lim := chi2Limit(engine.NumColors - 1); chi2 > lim {
		t.Errorf("colors named %v: chi2 %.2f > %.2f", named, chi2, lim)
	}
	// Uniform and blind to the hand: the color it holds most is named a
	// quarter of the time.
	if z := binomialZ(strongest, unique, 0.25); z > zMax || z < -zMax {
		t.Errorf("named its strongest color %d of %d times, want 1/4: z = %.2f", strongest, unique, z)
	}
}

// Random never challenges, always calls UNO, never catches and never
// bluffs, even when its opponents bluff and forget to call.
func TestRandomNeverChallengesCatchesOrBluffs(t *testing.T) {
	// Seats 0 and 2 are random; 1 and 3 bluff at every chance, never
	// challenge, forget every UNO call and never catch: random faces bluffs
	// and missed calls, and every challenge or catch would be its own.
	specs := []string{"random", "heuristic:bluff=1,challenge=never,forget=1,catch=0", "random", "heuristic:bluff=1,challenge=never,forget=1,catch=0"}
	asked := map[engine.Decision]int{}
	var bad []string
	obs := func(seat int, v *engine.View, moves []engine.Move, choice int) {
		if seat%2 != 0 {
			return
		}
		d := v.Decision()
		asked[d]++
		m := moves[choice]
		switch {
		case m.Kind() == engine.MoveChallenge:
			bad = append(bad, "challenged")
		case m.Kind() == engine.MoveCatch:
			bad = append(bad, "caught")
		case d == engine.DecideCallUNO && m.Kind() != engine.MoveCallUNO:
			bad = append(bad, "did not call UNO")
		case m.Card() == wd4 && (m.Kind() == engine.MovePlay || m.Kind() == engine.MoveStack) && !v.WD4Legal():
			bad = append(bad, "bluffed")
		}
	}
	g := table(t, options(t, engine.Classic), specs, obs)
	c := counts(g, 400, 5000)
	if len(bad) > 0 {
		t.Errorf("%d bad choices, first: %s", len(bad), bad[0])
	}
	if c[engine.CountChallenge] != 0 || c[engine.CountUnoPenalty] != 0 {
		t.Errorf("%d challenges and %d UNO penalties, want none", c[engine.CountChallenge], c[engine.CountUnoPenalty])
	}
	for _, d := range []engine.Decision{engine.DecideRespond, engine.DecideCatch, engine.DecideCallUNO} {
		if asked[d] < 1000 {
			t.Errorf("random was asked %s only %d times", d, asked[d])
		}
	}
	if c[engine.CountBluff] == 0 || c[engine.CountUnoMissed] == 0 {
		t.Errorf("the opponents never bluffed (%d) or missed a call (%d): nothing was tested", c[engine.CountBluff], c[engine.CountUnoMissed])
	}

	// Among random players alone nothing of the kind ever happens.
	g = table(t, options(t, engine.Classic), same("random", 4), nil)
	c = counts(g, 401, 5000)
	for _, k := range []engine.Counter{engine.CountBluff, engine.CountChallenge, engine.CountUnoMissed, engine.CountUnoPenalty, engine.CountVoluntaryDraw} {
		if c[k] != 0 {
			t.Errorf("random players alone: %s = %d, want 0", k, c[k])
		}
	}
	if c[engine.CountUnoCall] == 0 {
		t.Error("random players never called UNO")
	}
}

// A Wild Draw Four stacked on a pending draw is judged by wd4-legal
// (RULES.md section 7): random, which never bluffs, stacks one only when
// it is legal.
func TestRandomNeverBluffsByStacking(t *testing.T) {
	bluffs, stacks := 0, 0
	obs := func(seat int, v *engine.View, moves []engine.Move, choice int) {
		if m := moves[choice]; v.Decision() == engine.DecideRespond && m.Kind() == engine.MoveStack && m.Card() == wd4 {
			stacks++
			if !v.WD4Legal() {
				bluffs++
			}
		}
	}
	o := options(t, engine.Classic, "stack-draw-two=true", "stack-draw-four=true", "stack-mixed=true")
	g := table(t, o, same("random", 4), obs)
	c := counts(g, 500, 5000)
	if stacks == 0 {
		t.Fatal("no wild-draw-four was ever stacked")
	}
	if bluffs != 0 || c[engine.CountBluff] != 0 {
		t.Errorf("random stacked %d wild-draw-fours, %d of them bluffs (engine counted %d bluffs), want none",
			stacks, bluffs, c[engine.CountBluff])
	}
}

// Every other choice (the house rules') is uniform among the legal moves:
// whom to point at, link, silence or swap with, whether to jump in, and
// whether to accept, stack or deflect (never challenge). Pearson's
// chi-square over the choices grouped by the number of moves.
func TestRandomHouseRuleChoicesAreUniform(t *testing.T) {
	for ti, tc := range []struct {
		name    string
		rules   engine.RuleSet
		players int
		sets    []string
		games   int
		want    []engine.Decision
	}{
		{"party", engine.Party, 5, nil, 3000, []engine.Decision{engine.DecidePoint, engine.DecideLink, engine.DecideJumpIn}},
		{"encanto", engine.Encanto, 4, []string{"seven-zero=true"}, 3000, []engine.Decision{engine.DecideTarget}},
		{"stack-two", engine.Classic, 4, []string{"stack-draw-two=true", "jump-in=any"}, 3000, []engine.Decision{engine.DecideRespond, engine.DecideJumpIn}},
		{"deflect", engine.Classic, 3, []string{"deflect-draw-two=true", "deflect-draw-four=true", "deflect-skip=true"}, 3000, []engine.Decision{engine.DecideRespond}},
		{"swap-hands", engine.Classic, 6, []string{"deck=classic,wild-swap-hands=4"}, 3000, []engine.Decision{engine.DecideTarget}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := map[engine.Decision]uniformity{}
			for _, d := range tc.want {
				u[d] = uniformity{}
			}
			var bad []string
			obs := func(seat int, v *engine.View, moves []engine.Move, choice int) {
				d := v.Decision()
				if u[d] == nil {
					return
				}
				if moves[choice].Kind() == engine.MoveChallenge {
					bad = append(bad, "challenged")
					return
				}
				// Uniform among the moves other than a challenge.
				n, at := 0, 0
				for i, m := range moves {
					if m.Kind() == engine.MoveChallenge {
						continue
					}
					if i == choice {
						at = n
					}
					n++
				}
				u[d].add(n, at)
			}
			g := table(t, options(t, tc.rules, tc.sets...), same("random", tc.players), obs)
			counts(g, 600+uint64(ti), tc.games)
			if len(bad) > 0 {
				t.Errorf("%d bad choices, first: %s", len(bad), bad[0])
			}
			for _, d := range tc.want {
				stat, df, used := u[d].chi2()
				if used < 500 {
					t.Errorf("%s: only %d choices to judge", d, used)
					continue
				}
				if lim := chi2Limit(df); stat > lim {
					t.Errorf("%s: choices by number of moves %v: chi2 %.1f > %.1f (df %d)", d, u[d], stat, lim, df)
				}
				t.Logf("%s: %d choices, chi2 %.1f, df %d", d, used, stat, df)
			}
		})
	}
}

// Onto a Wild Pile Up's mini-pile every card of its color and every wild
// may be played, and nothing played there is a bluff or has any effect
// (RULES.md section 8): random plays a uniformly random instance of them,
// a Wild Draw Four as likely as any other card.
func TestRandomPileUpPlaysUniformInstances(t *testing.T) {
	var all, wd4s poissonBinomial
	obs := func(seat int, v *engine.View, moves []engine.Move, choice int) {
		if v.Decision() != engine.DecidePileUp {
			return
		}
		_, n := instanceCounts(v, moves)
		total := 0
		for _, c := range n {
			total += c
		}
		// The chance of the first move offered, and of a Wild Draw Four.
		all.add(float64(n[0])/float64(total), choice == 0)
		for i, m := range moves {
			if m.Card() == wd4 {
				wd4s.add(float64(n[i])/float64(total), choice == i)
			}
		}
	}
	g := table(t, options(t, engine.Party, "deck=party,wild-pile-up=12"), same("random", 4), obs)
	counts(g, 700, 4000)
	if all.trials < 1000 || wd4s.trials < 100 {
		t.Fatalf("too few mini-pile plays: %d, %d offering a wild-draw-four", all.trials, wd4s.trials)
	}
	if z := all.z(); z > zMax || z < -zMax {
		t.Errorf("first move chosen %d of %d times, expected %.1f: z = %.2f", all.observed, all.trials, all.mean, z)
	}
	if z := wd4s.z(); z > zMax || z < -zMax {
		t.Errorf("wild-draw-four put on the mini-pile %d of %d times it was offered, expected %.1f: z = %.2f",
			wd4s.observed, wd4s.trials, wd4s.mean, z)
	}
}
