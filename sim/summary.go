package sim

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/unosim/unosim/analysis"
	"github.com/unosim/unosim/engine"
)

// Confidence is the level of every interval reported.
const Confidence = 0.95

// QuantileDefinition names how quantiles are computed.
const QuantileDefinition = "inverse of the empirical distribution function (Hyndman and Fan 1996, type 1): the smallest value whose cumulative share reaches p"

// Float is a float64 that is written to JSON as null when it is not a
// number (an estimate of too few games), which JSON cannot hold.
type Float float64

// MarshalJSON writes NaN and infinities as null.
func (f Float) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(f))
}

// UnmarshalJSON reads null as NaN.
func (f *Float) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = Float(math.NaN())
		return nil
	}
	return json.Unmarshal(b, (*float64)(f))
}

// Dist summarizes a distribution of integer outcomes. A statistic that needs
// more games than there were (a standard deviation of one game) is NaN.
type Dist struct {
	N      int64    `json:"n"`
	Mean   Float    `json:"mean"`
	MeanCI [2]Float `json:"mean_ci"` // 95% Student t interval of the mean
	SD     Float    `json:"sd"`
	Min    int      `json:"min"`
	P10    Float    `json:"p10"`
	P50    Float    `json:"p50"`
	P90    Float    `json:"p90"`
	P99    Float    `json:"p99"`
	Max    int      `json:"max"`
	// Histogram counts the values in bins of equal width (inclusive bounds),
	// about 40 of them; stats.json holds the exact counts of every value.
	Histogram []analysis.Bin `json:"histogram"`
}

func dist(h *analysis.IntHist) Dist {
	ci := h.MeanCI(Confidence)
	d := Dist{
		N: h.N(), Mean: Float(h.Mean()), MeanCI: [2]Float{Float(ci.Lo), Float(ci.Hi)}, SD: Float(h.SD()),
		Min: h.Min(), P10: Float(h.Quantile(0.1)), P50: Float(h.Quantile(0.5)), P90: Float(h.Quantile(0.9)), P99: Float(h.Quantile(0.99)), Max: h.Max(),
	}
	if d.N > 0 {
		d.Histogram = h.Bins(max(1, (d.Max-d.Min+39)/40))
	}
	return d
}

// Rate is a proportion with its 95% Wilson interval.
type Rate struct {
	Successes int64    `json:"successes"`
	N         int64    `json:"n"`
	Rate      Float    `json:"rate"`
	CI        [2]Float `json:"ci"`
}

func rate(x, n int64) Rate {
	lo, hi := analysis.Wilson(x, n, Confidence)
	r := math.NaN()
	if n > 0 {
		r = float64(x) / float64(n)
	}
	return Rate{x, n, Float(r), [2]Float{Float(lo), Float(hi)}}
}

// StrategyWins is the win rate of one distinct strategy of the line-up: the
// share of games won by any seat playing it.
type StrategyWins struct {
	Strategy  string `json:"strategy"`
	Positions []int  `json:"positions"` // its line-up positions
	Rate
}

// Summary is the result of a run for people and programs: the JSON printed
// by --json and written to summary.json.
type Summary struct {
	Tool           string             `json:"tool"`
	Version        string             `json:"version"`
	Producer       Producer           `json:"producer"` // the build that played the games
	Complete       bool               `json:"complete"` // false: interrupted, the counts cover only the games done
	Games          int64              `json:"games"`
	Finished       int64              `json:"finished"`
	Unfinished     int64              `json:"unfinished"` // a round reached max-turns
	Blocked        int64              `json:"blocked"`    // a round could not go on
	Seed           uint64             `json:"seed"`
	Rules          string             `json:"rules"`
	Players        int                `json:"players"`
	Options        map[string]string  `json:"options"`
	Deck           string             `json:"deck"`       // the composition, e.g. the assumed UNO Party! deck
	Strategies     []string           `json:"strategies"` // by line-up position; seat s plays position s with fixed seats
	Seats          string             `json:"seats"`
	GameRange      [2]int64           `json:"game_range"`    // the game indices played, [lo, hi)
	PlannedRange   [2]int64           `json:"planned_range"` // the game indices the run was to play
	TotalGames     int64              `json:"total_games"`
	Turns          Dist               `json:"turns"`
	CardsPlayed    Dist               `json:"cards_played"`
	CardsDrawn     Dist               `json:"cards_drawn"`
	Rounds         Dist               `json:"rounds"`
	RoundPoints    Dist               `json:"points_per_round"`
	MatchPoints    Dist               `json:"points_per_match"`
	Quantiles      string             `json:"quantile_definition"`
	WinRateBySeat  []Float            `json:"win_rate_by_seat"` // fractions of all games; seat 0 acts first in round 1
	WinCIBySeat    [][2]Float         `json:"win_ci_by_seat"`   // 95% Wilson intervals
	WinsBySeat     []int64            `json:"wins_by_seat"`
	WinsByStrategy []StrategyWins     `json:"win_rate_by_strategy"`
	FirstPlayer    Rate               `json:"first_player_win_rate"` // games won by the seat that took the first turn
	FairShare      float64            `json:"fair_share"`            // 1/players, the win rate without any advantage
	SharedWins     int64              `json:"shared_wins"`
	NoWinner       int64              `json:"no_winner"`
	PlacesBySeat   [][]int64          `json:"places_by_seat,omitempty"`
	Events         map[string]int64   `json:"events"`          // totals over all games
	EventsPerGame  map[string]float64 `json:"events_per_game"` // totals / games
	ElapsedSeconds float64            `json:"elapsed_seconds"`
	GamesPerSecond float64            `json:"games_per_second"`
}

// Summarize turns the counts of a run into estimates.
func Summarize(id Identity, st *Stats, lo, hi int64, complete bool, elapsedSeconds float64, version string) *Summary {
	s := &Summary{
		Tool: "unosim", Version: version, Complete: complete,
		Games: st.Games, Finished: st.Finished, Unfinished: st.Unfinished, Blocked: st.Blocked,
		Seed: id.Seed, Rules: id.Rules, Players: id.Players, Options: map[string]string{},
		Strategies: id.Strategies, Seats: id.Seats, GameRange: [2]int64{lo, hi}, TotalGames: id.Games,
		Turns: dist(&st.Turns), CardsPlayed: dist(&st.CardsPlayed), CardsDrawn: dist(&st.CardsDrawn),
		Rounds: dist(&st.Rounds), RoundPoints: dist(&st.RoundPoints), MatchPoints: dist(&st.MatchPoints),
		Quantiles: QuantileDefinition, WinsBySeat: st.WinsBySeat,
		FirstPlayer: rate(st.FirstToActWins, st.Games), FairShare: 1 / float64(id.Players),
		SharedWins: st.SharedWins, NoWinner: st.NoWinner, PlacesBySeat: st.PlacesBySeat,
		Events: st.Events, EventsPerGame: map[string]float64{}, ElapsedSeconds: elapsedSeconds,
	}
	for _, kv := range id.Options {
		s.Options[kv[0]] = kv[1]
	}
	if d, err := engine.ParseDeck(s.Options["deck"]); err == nil {
		s.Deck = d.Describe()
	}
	for _, w := range st.WinsBySeat {
		r := rate(w, st.Games)
		s.WinRateBySeat = append(s.WinRateBySeat, r.Rate)
		s.WinCIBySeat = append(s.WinCIBySeat, r.CI)
	}
	distinct, group := Groups(id.Strategies)
	for k, name := range distinct {
		sw := StrategyWins{Strategy: name, Rate: rate(st.WinsByStrategy[k], st.Games)}
		for pos, g := range group {
			if g == k {
				sw.Positions = append(sw.Positions, pos)
			}
		}
		s.WinsByStrategy = append(s.WinsByStrategy, sw)
	}
	for k, v := range st.Events {
		if st.Games > 0 {
			s.EventsPerGame[k] = float64(v) / float64(st.Games)
		}
	}
	if elapsedSeconds > 0 {
		s.GamesPerSecond = float64(st.Games) / elapsedSeconds
	}
	return s
}

// CSV renders the summary as rows of metric,value,ci_low,ci_high,n.
func (s *Summary) CSV() string {
	var b strings.Builder
	b.WriteString("metric,value,ci_low,ci_high,n\n")
	row := func(metric string, v, lo, hi Float, n int64) {
		fmt.Fprintf(&b, "%s,%s,%s,%s,%d\n", metric, num(v), num(lo), num(hi), n)
	}
	nan := Float(math.NaN())
	plain := func(metric string, v Float, n int64) { row(metric, v, nan, nan, n) }
	plain("games", Float(s.Games), s.Games)
	plain("finished", Float(s.Finished), s.Games)
	plain("unfinished", Float(s.Unfinished), s.Games)
	plain("blocked", Float(s.Blocked), s.Games)
	for _, d := range []struct {
		name string
		d    *Dist
	}{{"turns", &s.Turns}, {"cards_played", &s.CardsPlayed}, {"cards_drawn", &s.CardsDrawn}, {"rounds", &s.Rounds}, {"points_per_round", &s.RoundPoints}, {"points_per_match", &s.MatchPoints}} {
		row(d.name+"_mean", d.d.Mean, d.d.MeanCI[0], d.d.MeanCI[1], d.d.N)
		plain(d.name+"_sd", d.d.SD, d.d.N)
		plain(d.name+"_p10", d.d.P10, d.d.N)
		plain(d.name+"_p50", d.d.P50, d.d.N)
		plain(d.name+"_p90", d.d.P90, d.d.N)
		plain(d.name+"_p99", d.d.P99, d.d.N)
	}
	for seat, r := range s.WinRateBySeat {
		row(fmt.Sprintf("win_rate_seat_%d", seat), r, s.WinCIBySeat[seat][0], s.WinCIBySeat[seat][1], s.Games)
	}
	for _, w := range s.WinsByStrategy {
		row("win_rate_strategy_"+csvSafe(w.Strategy), w.Rate.Rate, w.CI[0], w.CI[1], w.N)
	}
	row("first_player_win_rate", s.FirstPlayer.Rate, s.FirstPlayer.CI[0], s.FirstPlayer.CI[1], s.FirstPlayer.N)
	for _, k := range sortedKeys(s.Events) {
		plain("events_"+k, Float(s.Events[k]), s.Games)
	}
	plain("games_per_second", Float(s.GamesPerSecond), s.Games)
	return b.String()
}

func num(v Float) string {
	if math.IsNaN(float64(v)) {
		return ""
	}
	return fmt.Sprintf("%.6g", float64(v))
}

// csvSafe keeps a strategy specification in one CSV field.
func csvSafe(s string) string { return strings.NewReplacer(",", ";", "\"", "'").Replace(s) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
