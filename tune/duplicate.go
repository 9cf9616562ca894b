package tune

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync/atomic"
	"time"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/paired"
	"github.com/unosim/unosim/sim"
	"github.com/unosim/unosim/strategy"
)

// Field is the table a focus strategy sits at: the rules, the number of
// players, the opponents and what the focus seat scores. When the focus
// sits in seat r, seat (r+1+j) mod Players plays Opponents[j].
type Field struct {
	Options   engine.Options
	Players   int
	Opponents []strategy.Spec // Players-1 of them
	Objective Objective       // the zero value is Win
}

// Validate checks the field.
func (f *Field) Validate() error {
	if err := f.Options.Validate(f.Players); err != nil {
		return err
	}
	if len(f.Opponents) != f.Players-1 {
		return fmt.Errorf("%d opponents for %d players: want %d", len(f.Opponents), f.Players, f.Players-1)
	}
	return f.Objective.Check(f.Options)
}

// Outcome is what the entries of a duplicate run scored, all integer sums
// (exact, and the same for any worker count). A unit is a deal played in
// every seat rotation: Units[k].Per = Players games. Scores are the
// field's Objective (under Win they equal the wins).
type Outcome struct {
	Deals int64
	Games int64    // per entry: Deals × Players
	Wins  []int64  // per entry: games the focus seat won (shared wins included)
	Lost  []int64  // per entry: games another seat won and the focus did not
	Score []int64  // per entry: the focus seat's scores summed over its games
	Units []Scores // per entry: scores per deal
	// LostUnits per entry: per deal, the games another seat won and the
	// focus did not (Per = Players): with 2 players, the opponent's wins.
	LostUnits []Scores
	Diff      []Paired // per entry: per-deal scores minus entry 0's (Diff[0] is zero)
	Total     Scores   // per deal: the scores of all entries together (Per = entries × Players)
}

// Paired sums integer per-deal differences d of scores (entry minus entry 0).
type Paired struct {
	N, Sum, SumSq int64
}

func (o *Outcome) merge(p *Outcome) {
	o.Deals += p.Deals
	o.Games += p.Games
	for k := range o.Wins {
		o.Wins[k] += p.Wins[k]
		o.Lost[k] += p.Lost[k]
		o.Score[k] += p.Score[k]
		o.Units[k].Merge(p.Units[k])
		o.LostUnits[k].Merge(p.LostUnits[k])
		o.Diff[k].N += p.Diff[k].N
		o.Diff[k].Sum += p.Diff[k].Sum
		o.Diff[k].SumSq += p.Diff[k].SumSq
	}
	o.Total.Merge(p.Total)
}

func newOutcome(entries, players int) *Outcome {
	o := &Outcome{Wins: make([]int64, entries), Lost: make([]int64, entries), Score: make([]int64, entries), Units: make([]Scores, entries), LostUnits: make([]Scores, entries), Diff: make([]Paired, entries),
		Total: Scores{Per: int64(entries * players)}}
	for k := range o.Units {
		o.Units[k].Per = int64(players)
		o.LostUnits[k].Per = int64(players)
	}
	return o
}

// WinRate is entry k's win rate.
func (o *Outcome) WinRate(k int) float64 { return float64(o.Wins[k]) / float64(o.Games) }

// Mean is entry k's mean score per game.
func (o *Outcome) Mean(k int) float64 { return float64(o.Score[k]) / float64(o.Games) }

// Runner plays duplicate deals: deal d of Seed is the engine's game (Seed,
// d), played once with each entry in each seat r = 0..Players-1 against the
// field. Every entry plays the same deals, and every deal in every seat, so
// seat and deal luck cancel between entries. It is the strategies' front of
// the one paired runner (package paired), for match, tournament and tune:
// an entry is paired's entry of one configuration per rotation, and its
// sink sums the focus seats' scores deal by deal.
//
// Each worker owns a sim.Table per entry and rotation, built once: nothing
// is allocated per game. An entry identical to every opponent (a mirror)
// plays each deal once: all its rotations are the same game, so its focus
// scores in them sum to the scores of all seats of that game (under Win,
// the number of winners).
type Runner struct {
	field   Field
	entries []strategy.Spec
	mirror  []bool
	score   scorer
	run     *paired.Runner
}

// progressEvery is how often a run reports its progress.
const progressEvery = time.Second

// dealChunk is the number of consecutive deals a worker takes at a time.
const dealChunk = 64

// NewRunner builds the tables; workers 0 means one per core.
func NewRunner(f Field, entries []strategy.Spec, seed uint64, workers int) (*Runner, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		return nil, errors.New("duplicate deals: no entries")
	}
	if workers < 0 {
		return nil, fmt.Errorf("workers: %d, want at least 1 (or 0 for one per core)", workers)
	}
	r := &Runner{field: f, entries: entries, score: newScorer(f.Objective, f.Options, f.Players)}
	n := f.Players
	var configs [][]sim.Config
	for _, e := range entries {
		m := true
		for _, o := range f.Opponents {
			m = m && o.String() == e.String()
		}
		r.mirror = append(r.mirror, m)
		rots := n
		if m {
			rots = 1
		}
		var ce []sim.Config
		for rot := range rots {
			lineUp := make([]strategy.Spec, n)
			lineUp[rot] = e
			for j, o := range f.Opponents {
				lineUp[(rot+1+j)%n] = o
			}
			cfg := sim.Config{Options: f.Options, Players: n, LineUp: lineUp, Seats: sim.FixedSeats, Games: 1, Seed: seed, Workers: 1}
			if err := cfg.Validate(); err != nil {
				return nil, err
			}
			ce = append(ce, cfg)
		}
		configs = append(configs, ce)
	}
	run, err := paired.New(configs, workers, dealChunk)
	if err != nil {
		return nil, err
	}
	r.run = run
	return r, nil
}

// Close ends the tables' external bots.
func (r *Runner) Close() { r.run.Close() }

// scoreSink is one worker's sums.
type scoreSink struct {
	r   *Runner
	out *Outcome
	sc  []int64 // per entry: the focus scores of the current deal
}

func (s *scoreSink) Deal(d int64, res [][]*engine.Result) {
	r, out, n := s.r, s.out, s.r.field.Players
	for k, rs := range res {
		w, sc, lost := 0, int64(0), int64(0)
		if r.mirror[k] {
			// n identical games: the focus wins in as many rotations as
			// the game has winners, and loses in the rest if it has any;
			// its scores are those of every seat.
			g := rs[0]
			w = bits.OnesCount32(g.Winners)
			if w > 0 {
				lost = int64(n - w)
			}
			if r.score.obj == Win {
				sc = int64(w)
			} else {
				for seat := range n {
					sc += r.score.score(g, seat)
				}
			}
		} else {
			for rot, g := range rs {
				if g.Won(rot) {
					w++
				} else if g.Winners != 0 {
					lost++
				}
				if r.score.obj != Win {
					sc += r.score.score(g, rot)
				}
			}
			if r.score.obj == Win {
				sc = int64(w)
			}
		}
		out.Wins[k] += int64(w)
		out.Lost[k] += lost
		out.LostUnits[k].Add(lost)
		s.sc[k] = sc
	}
	tot, w0 := int64(0), s.sc[0]
	for k, w := range s.sc {
		out.Score[k] += w
		out.Units[k].Add(w)
		dd := w - w0
		out.Diff[k].N++
		out.Diff[k].Sum += dd
		out.Diff[k].SumSq += dd * dd
		tot += w
	}
	out.Total.Add(tot)
	out.Deals++
}

// Play plays deals [lo, hi). When ctx is cancelled it stops after the
// current chunks and returns ctx's error. progress (may be nil) gets the
// games done so far (all entries, all rotations) about every interval.
func (r *Runner) Play(ctx context.Context, lo, hi int64, progress func(games int64), interval time.Duration) (*Outcome, error) {
	if hi <= lo {
		return nil, fmt.Errorf("duplicate deals: empty range [%d, %d)", lo, hi)
	}
	n := r.field.Players
	sinks := make([]paired.Sink, r.run.Workers())
	outs := make([]*Outcome, len(sinks))
	for w := range sinks {
		outs[w] = newOutcome(len(r.entries), n)
		sinks[w] = &scoreSink{r: r, out: outs[w], sc: make([]int64, len(r.entries))}
	}
	var done atomic.Int64
	stop := func() {}
	if progress != nil {
		stop = sim.StartTicker(interval, func() { progress(done.Load()) })
	}
	_, err := r.run.Play(ctx, lo, hi, paired.Options{Sinks: sinks, Done: &done})
	stop()
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	out := newOutcome(len(r.entries), n)
	for _, o := range outs {
		out.merge(o)
	}
	out.Games = out.Deals * int64(n)
	return out, nil
}
