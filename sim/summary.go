package sim

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
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
	Tool       string   `json:"tool"`
	Version    string   `json:"version"`
	Producer   Producer `json:"producer"` // the build that played the games
	Complete   bool     `json:"complete"` // false: interrupted, the counts cover only the games done
	Games      int64    `json:"games"`
	Finished   int64    `json:"finished"`
	Unfinished int64    `json:"unfinished"` // a round reached max-turns, or a match engine.MaxRounds rounds
	// UnfinishedTurnCap and UnfinishedMatchCap split Unfinished: a round
	// reached max-turns; every round finished but the match reached
	// engine.MaxRounds (10,000) rounds short of its target.
	UnfinishedTurnCap  int64              `json:"unfinished_turn_cap"`
	UnfinishedMatchCap int64              `json:"unfinished_match_cap"`
	Blocked            int64              `json:"blocked"` // a round could not go on
	Seed               uint64             `json:"seed"`
	Rules              string             `json:"rules"`
	Players            int                `json:"players"`
	Options            map[string]string  `json:"options"`
	Deck               string             `json:"deck"`       // the composition, e.g. the assumed UNO Party! deck
	Strategies         []string           `json:"strategies"` // by line-up position; seat s plays position s with fixed seats
	Seats              string             `json:"seats"`
	GameRange          [2]int64           `json:"game_range"`    // the game indices played, [lo, hi)
	PlannedRange       [2]int64           `json:"planned_range"` // the game indices the run was to play
	TotalGames         int64              `json:"total_games"`
	Turns              Dist               `json:"turns"`
	CardsPlayed        Dist               `json:"cards_played"`
	CardsDrawn         Dist               `json:"cards_drawn"`
	Rounds             Dist               `json:"rounds"`
	RoundPoints        Dist               `json:"points_per_round"`
	MatchPoints        Dist               `json:"points_per_match"`
	Quantiles          string             `json:"quantile_definition"`
	WinRateBySeat      []Float            `json:"win_rate_by_seat"` // fractions of all games; seat 0 acts first in round 1
	WinCIBySeat        [][2]Float         `json:"win_ci_by_seat"`   // 95% Wilson intervals
	WinsBySeat         []int64            `json:"wins_by_seat"`
	WinsByStrategy     []StrategyWins     `json:"win_rate_by_strategy"`
	FirstPlayer        Rate               `json:"first_player_win_rate"` // games won by the seat that took the first turn
	FairShare          float64            `json:"fair_share"`            // 1/players, the win rate without any advantage
	SharedWins         int64              `json:"shared_wins"`
	NoWinner           int64              `json:"no_winner"`
	PlacesBySeat       [][]int64          `json:"places_by_seat,omitempty"`
	Events             map[string]int64   `json:"events"`          // totals over all games
	EventsPerGame      map[string]float64 `json:"events_per_game"` // totals / games
	ElapsedSeconds     float64            `json:"elapsed_seconds"`
	GamesPerSecond     float64            `json:"games_per_second"`
	Workers            int                `json:"workers,omitempty"` // worker goroutines (0: merged from shards)

	// LongestGame and MostCardsDrawn name the games to replay ('unosim
	// replay --game N' with the run's flags): the most turns and the most
	// cards drawn, the lowest index on ties; absent when no game was played.
	LongestGame    *LongestGame    `json:"longest_game,omitempty"`
	MostCardsDrawn *MostCardsDrawn `json:"most_cards_drawn,omitempty"`
}

// LongestGame is the game of a run with the most turns.
type LongestGame struct {
	Game  int64 `json:"game"`
	Turns int   `json:"turns"`
}

// MostCardsDrawn is the game of a run in which the most cards were drawn.
type MostCardsDrawn struct {
	Game       int64 `json:"game"`
	CardsDrawn int   `json:"cards_drawn"`
}

// Summarize turns the counts of a run into estimates.
func Summarize(id Identity, st *Stats, lo, hi int64, complete bool, elapsedSeconds float64, version string) *Summary {
	s := &Summary{
		Tool: "unosim", Version: version, Complete: complete,
		Games: st.Games, Finished: st.Finished, Unfinished: st.Unfinished, Blocked: st.Blocked,
		UnfinishedTurnCap: st.Unfinished - st.MatchCapped, UnfinishedMatchCap: st.MatchCapped,
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
	if st.Games > 0 {
		s.LongestGame = &LongestGame{st.Longest.Game, st.Longest.Value}
		s.MostCardsDrawn = &MostCardsDrawn{st.MostDrawn.Game, st.MostDrawn.Value}
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

// CSVHeader is the first line of summary.csv. The file is tidy: one row
// per estimate, each with the configuration of its run in the first
// columns, so that the CSVs of several runs concatenate into one table.
const CSVHeader = "rules,players,seats,strategies,options,seed,games,metric,value,ci_low,ci_high,n"

// CSV renders the summary as summary.csv (CSVHeader). Counts are exact
// integers, estimates floats at full precision (the shortest text that
// reads back as the same float64), an empty field a statistic that needs
// more games; nothing depends on timing, so identical runs give identical
// bytes. strategies lists the line-up positions separated by spaces;
// options lists the options changed from the rule set's defaults.
func (s *Summary) CSV() string {
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Write(strings.Split(CSVHeader, ","))
	config := []string{s.Rules, strconv.Itoa(s.Players), s.Seats, strings.Join(s.Strategies, " "), s.changedOptions(),
		strconv.FormatUint(s.Seed, 10), strconv.FormatInt(s.TotalGames, 10)}
	record := func(metric, v, lo, hi string, n int64) {
		w.Write(append(slices.Clone(config), metric, v, lo, hi, strconv.FormatInt(n, 10)))
	}
	row := func(metric string, v, lo, hi Float, n int64) { record(metric, num(v), num(lo), num(hi), n) }
	count := func(metric string, v, n int64) { record(metric, strconv.FormatInt(v, 10), "", "", n) }
	plain := func(metric string, v Float, n int64) { record(metric, num(v), "", "", n) }
	count("games", s.Games, s.Games)
	count("finished", s.Finished, s.Games)
	count("unfinished", s.Unfinished, s.Games)
	count("unfinished_turn_cap", s.UnfinishedTurnCap, s.Games)
	count("unfinished_match_cap", s.UnfinishedMatchCap, s.Games)
	count("blocked", s.Blocked, s.Games)
	for _, d := range []struct {
		name string
		d    *Dist
	}{{"turns", &s.Turns}, {"cards_played", &s.CardsPlayed}, {"cards_drawn", &s.CardsDrawn}, {"rounds", &s.Rounds}, {"points_per_round", &s.RoundPoints}, {"points_per_match", &s.MatchPoints}} {
		row(d.name+"_mean", d.d.Mean, d.d.MeanCI[0], d.d.MeanCI[1], d.d.N)
		plain(d.name+"_sd", d.d.SD, d.d.N)
		if d.d.N > 0 {
			count(d.name+"_min", int64(d.d.Min), d.d.N)
		}
		plain(d.name+"_p10", d.d.P10, d.d.N)
		plain(d.name+"_p50", d.d.P50, d.d.N)
		plain(d.name+"_p90", d.d.P90, d.d.N)
		plain(d.name+"_p99", d.d.P99, d.d.N)
		if d.d.N > 0 {
			count(d.name+"_max", int64(d.d.Max), d.d.N)
		}
	}
	for seat, r := range s.WinRateBySeat {
		count(fmt.Sprintf("wins_seat_%d", seat), s.WinsBySeat[seat], s.Games)
		row(fmt.Sprintf("win_rate_seat_%d", seat), r, s.WinCIBySeat[seat][0], s.WinCIBySeat[seat][1], s.Games)
	}
	for _, sw := range s.WinsByStrategy {
		count("wins_strategy_"+sw.Strategy, sw.Successes, sw.N)
		row("win_rate_strategy_"+sw.Strategy, sw.Rate.Rate, sw.CI[0], sw.CI[1], sw.N)
	}
	count("first_player_wins", s.FirstPlayer.Successes, s.FirstPlayer.N)
	row("first_player_win_rate", s.FirstPlayer.Rate, s.FirstPlayer.CI[0], s.FirstPlayer.CI[1], s.FirstPlayer.N)
	count("shared_wins", s.SharedWins, s.Games)
	count("no_winner", s.NoWinner, s.Games)
	for seat, row := range s.PlacesBySeat {
		for k, v := range row {
			count(fmt.Sprintf("place_%d_seat_%d", k+1, seat), v, s.Games)
		}
	}
	for _, k := range sortedKeys(s.Events) {
		count("events_"+k, s.Events[k], s.Games)
	}
	w.Flush()
	return b.String()
}

// changedOptions lists the options that differ from the rule set's
// defaults as name=value, sorted, separated by spaces ("" for none).
func (s *Summary) changedOptions() string {
	r, err := engine.ParseRuleSet(s.Rules)
	if err != nil {
		return ""
	}
	def := engine.DefaultOptions(r)
	var out []string
	for _, k := range sortedKeys(s.Options) {
		if v, err := def.Get(k); err != nil || v != s.Options[k] {
			out = append(out, k+"="+s.Options[k])
		}
	}
	return strings.Join(out, " ")
}

func num(v Float) string {
	if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
		return ""
	}
	return strconv.FormatFloat(float64(v), 'g', -1, 64)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
