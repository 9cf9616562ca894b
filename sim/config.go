package sim

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/unosim/unosim/analysis"
	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/strategy"
)

// Seats says how strategies sit at the table.
type Seats uint8

// The seat arrangements.
const (
	// FixedSeats: seat s always plays line-up position s. Seat 0 is the
	// player left of the first dealer, who acts first in round 1.
	FixedSeats Seats = iota
	// RotateSeats: in game i, seat s plays line-up position (s+i) mod n, so
	// every strategy sits in every seat equally often and comparisons of
	// strategies carry no seat bias.
	RotateSeats
)

func (s Seats) String() string {
	if s == RotateSeats {
		return "rotate"
	}
	return "fixed"
}

// ParseSeats reads "fixed" or "rotate".
func ParseSeats(v string) (Seats, error) {
	switch v {
	case "fixed":
		return FixedSeats, nil
	case "rotate":
		return RotateSeats, nil
	}
	return 0, fmt.Errorf("unknown seat arrangement %q (valid: fixed, rotate)", v)
}

// Shard is the part i of n (0 <= i < n) of a run's game indices.
type Shard struct{ Index, Count int }

// ParseShard reads "i/n" with 0 <= i < n.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("shard %q: want i/n with 0 <= i < n, e.g. 0/4 (the first of four)", s)
	}
	return Shard{i, n}, nil
}

func (s Shard) String() string {
	if s.Count <= 1 {
		return "0/1"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Range is the half-open range of game indices of shard s of games:
// [games*i/n, games*(i+1)/n), computed without overflow.
func (s Shard) Range(games int64) (lo, hi int64) {
	if s.Count <= 1 || games < 0 {
		return 0, games
	}
	at := func(i int) int64 {
		h, l := bits.Mul64(uint64(games), uint64(i))
		q, _ := bits.Div64(h, l, uint64(s.Count))
		return int64(q)
	}
	return at(s.Index), at(s.Index + 1)
}

// MaxGames bounds the games of a run (10^15: about 30 years at a million
// games a second), so that every game index and count stays far from
// overflowing an int64.
const MaxGames = 1_000_000_000_000_000

// MaxWorkers bounds the worker count (0 means one per core).
const MaxWorkers = 4096

// Config is one simulation: a configuration of the game and how many games
// of it to play.
type Config struct {
	Options engine.Options
	Players int
	// LineUp holds one strategy per line-up position (len == Players).
	LineUp  []strategy.Spec
	Seats   Seats
	Games   int64 // games in the whole run, over all shards
	Seed    uint64
	Workers int // 0: one per core
	Shard   Shard

	group []int // line-up position -> index among the distinct strategies
}

// Groups returns the distinct strategies of a line-up in order of first
// appearance, and for each position the index of its strategy among them.
func Groups(lineUp []string) (distinct []string, group []int) {
	for _, s := range lineUp {
		k := slices.Index(distinct, s)
		if k < 0 {
			k = len(distinct)
			distinct = append(distinct, s)
		}
		group = append(group, k)
	}
	return distinct, group
}

// Validate checks the configuration before any work is done.
func (c *Config) Validate() error {
	if err := c.Options.Validate(c.Players); err != nil {
		return err
	}
	if len(c.LineUp) != c.Players {
		return fmt.Errorf("%d strategies for %d players: give one strategy for every seat, or one for all", len(c.LineUp), c.Players)
	}
	if c.Games < 1 || c.Games > MaxGames {
		return fmt.Errorf("games: %d, want 1 to %d (10^15)", c.Games, int64(MaxGames))
	}
	if c.Workers < 0 || c.Workers > MaxWorkers {
		return fmt.Errorf("workers: %d, want 0 (one per core) to %d", c.Workers, MaxWorkers)
	}
	if c.Shard.Count < 0 || (c.Shard.Count > 0 && (c.Shard.Index < 0 || c.Shard.Index >= c.Shard.Count)) {
		return errors.New("shard: want i/n with 0 <= i < n")
	}
	if lo, hi := c.Shard.Range(c.Games); hi <= lo {
		return fmt.Errorf("shard %s of %d games holds no game", c.Shard, c.Games)
	}
	_, c.group = Groups(c.Identity().Strategies)
	return nil
}

// Position is the line-up position that sits in seat s in game i.
func (c *Config) Position(game int64, seat int) int {
	if c.Seats == RotateSeats {
		return int((int64(seat) + game) % int64(c.Players))
	}
	return seat
}

// rotation is the rotation offset of game i (0 with fixed seats).
func (c *Config) rotation(game int64) int {
	if c.Seats == RotateSeats {
		return int(game % int64(c.Players))
	}
	return 0
}

// NewGame builds an engine table for the games of rotation offset rot: seat
// s plays line-up position (s+rot) mod n. Every call makes new strategy
// instances.
func (c *Config) NewGame(rot int) (*engine.Game, error) { return c.newGame(rot, strategy.NewPool()) }

// newGame is NewGame with the external bots of pool.
func (c *Config) newGame(rot int, pool *strategy.Pool) (*engine.Game, error) {
	ss := make([]engine.Strategy, c.Players)
	for s := range ss {
		ss[s] = c.LineUp[(s+rot)%c.Players].NewIn(pool)
	}
	return engine.NewGame(c.Options, ss)
}

// GameFor builds the table that plays game i (the replay command uses it).
func (c *Config) GameFor(game int64) (*engine.Game, error) { return c.NewGame(c.rotation(game)) }

// GameAndBots is GameFor with the pool of the game's external bots, whose
// Err reports a bot that failed during it (the game then went on with
// stand-in moves, so it is not the run's game).
func (c *Config) GameAndBots(game int64) (*engine.Game, *strategy.Pool, error) {
	pool := strategy.NewPool()
	g, err := c.newGame(c.rotation(game), pool)
	return g, pool, err
}

// Identity is what must agree for runs to be merged.
type Identity struct {
	Rules      string      `json:"rules"`
	Players    int         `json:"players"`
	Options    [][2]string `json:"options"`
	Strategies []string    `json:"strategies"`
	Seats      string      `json:"seats"`
	Seed       uint64      `json:"seed"`
	Games      int64       `json:"games"`
}

// Identity describes the run.
func (c *Config) Identity() Identity {
	id := Identity{
		Rules: c.Options.Rules.String(), Players: c.Players, Options: c.Options.Values(),
		Seats: c.Seats.String(), Seed: c.Seed, Games: c.Games,
	}
	for _, s := range c.LineUp {
		id.Strategies = append(id.Strategies, s.String())
	}
	return id
}

// Equal reports whether two identities describe the same run.
func (id Identity) Equal(o Identity) bool {
	if id.Rules != o.Rules || id.Players != o.Players || id.Seats != o.Seats || id.Seed != o.Seed ||
		id.Games != o.Games || len(id.Options) != len(o.Options) || len(id.Strategies) != len(o.Strategies) {
		return false
	}
	for i := range id.Options {
		if id.Options[i] != o.Options[i] {
			return false
		}
	}
	for i := range id.Strategies {
		if id.Strategies[i] != o.Strategies[i] {
			return false
		}
	}
	return true
}

// strategies is the number of distinct strategies in the line-up.
func (c *Config) strategies() int {
	n := 0
	for _, g := range c.group {
		n = max(n, g+1)
	}
	return n
}

// Field is one named value of a run's identity, for saying what differs.
type Field struct{ Name, Value string }

// Fields lists the identity field by field, in the words of the command
// line: "seed 8", "option stack-draw-two true".
func (id Identity) Fields() []Field {
	f := []Field{{"rules", id.Rules}, {"players", strconv.Itoa(id.Players)}}
	for _, o := range id.Options {
		f = append(f, Field{"option " + o[0], o[1]})
	}
	f = append(f, Field{"strategies", strings.Join(id.Strategies, ",")}, Field{"seats", id.Seats},
		Field{"seed", strconv.FormatUint(id.Seed, 10)}, Field{"games", analysis.Thousands(id.Games)})
	return f
}

// Diff says field by field how a differs from b ("seed 8 vs 7"); nil when
// they are the same run.
func Diff(a, b []Field) []string {
	var d []string
	for _, fa := range a {
		fb, ok := lookup(b, fa.Name)
		switch {
		case !ok:
			d = append(d, fmt.Sprintf("%s %s vs (none)", fa.Name, fa.Value))
		case fa.Value != fb:
			d = append(d, fmt.Sprintf("%s %s vs %s", fa.Name, fa.Value, fb))
		}
	}
	for _, fb := range b {
		if _, ok := lookup(a, fb.Name); !ok {
			d = append(d, fmt.Sprintf("%s (none) vs %s", fb.Name, fb.Value))
		}
	}
	return d
}

func lookup(fs []Field, name string) (string, bool) {
	for _, f := range fs {
		if f.Name == name {
			return f.Value, true
		}
	}
	return "", false
}
