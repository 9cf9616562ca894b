package experiments

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/unosim/unosim/engine"
	"github.com/unosim/unosim/sim"
	"github.com/unosim/unosim/strategy"
	"github.com/unosim/unosim/tune"
)

// File is an experiment file as written.
type File struct {
	Name        string       `yaml:"name"`
	Description string       `yaml:"description"`
	Seed        uint64       `yaml:"seed"`
	Games       int64        `yaml:"games"` // games per cell
	Main        string       `yaml:"main"`  // the main estimate of a cell: turns (default), cards-drawn, first-player, unfinished or position:K
	Batch       int64        `yaml:"batch"` // games per batch with --ci-width (default 10000)
	Grids       []Grid       `yaml:"grids"`
	Compare     []Comparison `yaml:"compare"`
	Surface     *Surface     `yaml:"surface"`
	// Tournament, instead of grids, declares a round robin of strategies
	// on duplicate deals (games is then per pair and player count).
	Tournament *TournamentFile `yaml:"tournament"`
}

// TournamentFile declares a round robin: every pair of strategies, for
// each player count, on duplicate deals with every deal in every seat
// rotation (with more than 2 players, each strategy alone against a table
// of the other, both ways), run by the tournament code of 'unosim
// tournament'.
type TournamentFile struct {
	Strategies []string          `yaml:"strategies"`
	Players    []int             `yaml:"players"` // default [2]
	Rules      string            `yaml:"rules"`   // default classic
	Options    map[string]string `yaml:"options"` // option: value, for every player count
	// GamesFor caps a strategy's games per pair (a pair plays the smaller
	// budget of its two): key a strategy as written, or a name for every
	// strategy of that name.
	GamesFor map[string]int64 `yaml:"games-for"`
}

// Tournament is a validated round robin.
type Tournament struct {
	Strategies []strategy.Spec
	Players    []int
	Options    engine.Options
	GamesFor   []int64 // per strategy: its games per pair at most; 0: the run's games
}

// Grid is a block of cells: the product of its axes.
type Grid struct {
	Rules   []string                   `yaml:"rules"`   // default [classic]
	Players []int                      `yaml:"players"` // default [4]
	Options ordered[map[string]string] `yaml:"options"` // label: {option: value}; default {default: {}}
	Lineups ordered[[]string]          `yaml:"lineups"` // label: strategies, one for every seat or one per seat; default {heuristic: [heuristic]}
	Vars    ordered[[]string]          `yaml:"vars"`    // name: values, substituted for ${name} in option values and strategies
	Seats   string                     `yaml:"seats"`   // fixed (default) or rotate
}

// Comparison declares tests. With an axis, every cell is compared with the
// cell of the same grid that differs only in having the baseline value on
// that axis (paired: the same games). With against, every cell's metric is
// tested against that proportion, or with "fair" against 1/players.
type Comparison struct {
	Axis     string   `yaml:"axis"`
	Baseline string   `yaml:"baseline"`
	Metrics  []string `yaml:"metrics"` // default [turns, first-player, unfinished]
	Metric   string   `yaml:"metric"`  // with against
	Against  string   `yaml:"against"` // a proportion, or fair: 1/players of each cell
}

// Surface declares a two-way analysis of the cells of a grid with two
// variables: the rows player chooses a row to maximize the metric, the
// columns player a column to minimize it. The report gives each side's best
// response and the cells where the two meet (pure equilibria).
type Surface struct {
	Rows   string `yaml:"rows"`
	Cols   string `yaml:"cols"`
	Metric string `yaml:"metric"`
}

// ordered is a mapping that keeps the order of its keys as written.
type ordered[V any] []entry[V]

type entry[V any] struct {
	Key   string
	Value V
}

func (o *ordered[V]) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: want a mapping of name: value", n.Line)
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if line, dup := seen[k.Value]; dup {
			return fmt.Errorf("line %d: mapping key %q already defined at line %d", k.Line, k.Value, line)
		}
		seen[k.Value] = k.Line
		var val V
		if err := v.Decode(&val); err != nil {
			return fmt.Errorf("line %d: %s: %v", v.Line, k.Value, strings.TrimPrefix(err.Error(), "yaml: unmarshal errors:\n  "))
		}
		*o = append(*o, entry[V]{k.Value, val})
	}
	return nil
}

// Metric is a per-game outcome that cells are measured and compared by.
type Metric struct {
	Kind     MetricKind
	Position int // for MetricPosition
}

// MetricKind names a metric.
type MetricKind uint8

// The metrics.
const (
	MetricTurns       MetricKind = iota // game length in turns (numeric)
	MetricCardsDrawn                    // cards drawn in the game (numeric)
	MetricFirstPlayer                   // the player who took the first turn won (binary)
	MetricUnfinished                    // the game hit the turn cap or was blocked (binary)
	MetricPosition                      // line-up position K won (binary)
)

// Numeric reports whether the metric is a number per game (else a yes/no).
func (m Metric) Numeric() bool { return m.Kind == MetricTurns || m.Kind == MetricCardsDrawn }

func (m Metric) String() string {
	switch m.Kind {
	case MetricTurns:
		return "turns"
	case MetricCardsDrawn:
		return "cards-drawn"
	case MetricFirstPlayer:
		return "first-player"
	case MetricUnfinished:
		return "unfinished"
	}
	return fmt.Sprintf("position:%d", m.Position)
}

const metricChoices = "turns, cards-drawn, first-player, unfinished, position:K"

// ParseMetric reads a metric name.
func ParseMetric(s string) (Metric, error) {
	switch s {
	case "turns":
		return Metric{Kind: MetricTurns}, nil
	case "cards-drawn":
		return Metric{Kind: MetricCardsDrawn}, nil
	case "first-player":
		return Metric{Kind: MetricFirstPlayer}, nil
	case "unfinished":
		return Metric{Kind: MetricUnfinished}, nil
	}
	if k, ok := strings.CutPrefix(s, "position:"); ok {
		if n, err := strconv.Atoi(k); err == nil && n >= 0 && n < engine.MaxPlayers {
			return Metric{Kind: MetricPosition, Position: n}, nil
		}
	}
	return Metric{}, fmt.Errorf("unknown metric %q (valid: %s)", s, metricChoices)
}

// Cell is one configuration of an experiment.
type Cell struct {
	Index  int
	Grid   int
	Label  string            // the values of the axes that vary, for people
	Slug   string            // the label as a file name
	Coords map[string]string // axis (rules, players, options, lineup, or a variable) -> value
	Config sim.Config
}

// Pair is one paired comparison: cell A against baseline cell B.
type Pair struct {
	A, B    int
	Axis    string
	Metrics []Metric
}

// OneSample is a test of every cell's metric against a proportion.
type OneSample struct {
	Metric  Metric
	Against float64 // NaN: the fair share 1/players of each cell
}

// Experiment is a validated experiment: its cells and comparisons.
type Experiment struct {
	File      File
	Source    string // the file name, or builtin:NAME
	Hash      string // sha256 of the file's bytes
	Main      Metric
	Cells     []Cell
	Pairs     []Pair
	OneSample []OneSample
	Tour      *Tournament // a tournament file: no cells, pairs or tests
	Axes      []string    // the axes that vary, in order
	// Warnings are valid but probably unintended settings, as file:line:
	// message (an option the cell's scoring ignores), for stderr.
	Warnings []string
}

// Load reads and validates an experiment file.
func Load(path string) (*Experiment, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

var (
	yamlLine     = regexp.MustCompile(`^line (\d+): (.*)$`)
	unknownField = regexp.MustCompile(`^field (\S+) not found in type experiments\.(\w+)$`)
)

// Parse validates an experiment from its bytes (YAML, or JSON, which is
// read as YAML); name is used in error messages as name:line. Parsing is
// strict: one document; no unknown key; every count, index and seed a whole
// number in decimal digits (YAML would read 010 as octal 8 and accept
// 0x10); no empty list where a default exists. A missing seed is 1, as in
// simulate; a missing games is allowed here and must then come from
// --games (CheckRun).
func Parse(name string, data []byte) (*Experiment, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%s: the file is empty; an experiment needs at least name, games and grids (see the README)", name)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: the file holds only comments; an experiment needs at least name, games and grids (see the README)", name)
		}
		return nil, fileError(name, err)
	}
	var second yaml.Node
	if err := dec.Decode(&second); err == nil {
		return nil, fmt.Errorf("%s:%d: a second YAML document starts here; an experiment file holds exactly one", name, second.Line)
	} else if !errors.Is(err, io.EOF) {
		return nil, fileError(name, err)
	}
	if err := checkNode(&root, reflect.TypeFor[File](), "the file"); err != nil {
		var le lineError
		if errors.As(err, &le) {
			return nil, fmt.Errorf("%s:%d: %s", name, le.line, le.msg)
		}
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	var f File
	if err := root.Decode(&f); err != nil {
		return nil, fileError(name, err)
	}
	sum := sha256.Sum256(data)
	e := &Experiment{File: f, Source: name, Hash: hex.EncodeToString(sum[:])}
	if err := e.validate(&root); err != nil {
		var le lineError
		if errors.As(err, &le) && le.line > 0 {
			return nil, fmt.Errorf("%s:%d: %s", name, le.line, le.msg)
		}
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return e, nil
}

// orderedMapping is implemented by ordered, so that checkNode can see the
// type of its values.
type orderedMapping interface{ valueType() reflect.Type }

func (ordered[V]) valueType() reflect.Type { return reflect.TypeFor[V]() }

var decimalText = regexp.MustCompile(`^[+-]?[0-9]+$`)

// checkNode checks node n against the Go type t it is to be decoded into,
// with messages naming the key (what) and the line: the kind of node, the
// keys of a mapping, and whole numbers in decimal, which it rewrites in
// canonical form (so that 010 is decoded as ten, not as octal 8).
func checkNode(n *yaml.Node, t reflect.Type, what string) error {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			return errAt(n.Line, "the file is empty")
		}
		return checkNode(n.Content[0], t, what)
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	isNull := n.Kind == yaml.ScalarNode && n.Tag == "!!null"
	if om, ok := reflect.New(t).Elem().Interface().(orderedMapping); ok {
		if n.Kind != yaml.MappingNode {
			return errAt(n.Line, "%s: want a mapping of name: value, got %s", what, describe(n))
		}
		if len(n.Content) == 0 {
			return errAt(n.Line, "%s: {} is empty; leave %s out for its default", what, what)
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if err := checkNode(n.Content[i+1], om.valueType(), what+" "+n.Content[i].Value); err != nil {
				return err
			}
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return errAt(n.Line, "%s: want a mapping of key: value, got %s", what, describe(n))
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			f, ok := fieldByTag(t, k.Value)
			if !ok {
				return errAt(k.Line, "unknown key %q (valid: %s)", k.Value, validKeys(t.Name()))
			}
			if err := checkNode(v, f.Type, k.Value); err != nil {
				return err
			}
		}
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			return errAt(n.Line, "%s: want a list, e.g. [a, b], got %s", what, describe(n))
		}
		if len(n.Content) == 0 {
			return errAt(n.Line, "%s: [] is empty; %s", what, emptyListHint(what))
		}
		for _, c := range n.Content {
			if err := checkNode(c, t.Elem(), what); err != nil {
				return err
			}
		}
	case reflect.Map:
		if isNull {
			return nil
		}
		if n.Kind != yaml.MappingNode {
			return errAt(n.Line, "%s: want a mapping of name: value, got %s", what, describe(n))
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if err := checkNode(n.Content[i+1], t.Elem(), what+" "+n.Content[i].Value); err != nil {
				return err
			}
		}
	case reflect.String:
		if n.Kind != yaml.ScalarNode {
			return errAt(n.Line, "%s: want a single value, got %s", what, describe(n))
		}
	case reflect.Int, reflect.Int64, reflect.Uint64:
		if n.Kind != yaml.ScalarNode || isNull || !decimalText.MatchString(n.Value) {
			return errAt(n.Line, "%s: %s, want a whole number in decimal digits", what, describe(n))
		}
		text := strings.TrimPrefix(n.Value, "+")
		var canon string
		if t.Kind() == reflect.Uint64 {
			v, err := strconv.ParseUint(text, 10, 64)
			if err != nil {
				return errAt(n.Line, "%s: %s, want a whole number from 0 to %d", what, n.Value, uint64(math.MaxUint64))
			}
			canon = strconv.FormatUint(v, 10)
		} else {
			v, err := strconv.ParseInt(text, 10, 64)
			if err != nil || (t.Kind() == reflect.Int && (v < math.MinInt32 || v > math.MaxInt32)) {
				return errAt(n.Line, "%s: %s is out of range", what, n.Value)
			}
			canon = strconv.FormatInt(v, 10)
		}
		n.Value, n.Tag, n.Style = canon, "!!int", 0
	}
	return nil
}

// describe names what a node holds, for messages.
func describe(n *yaml.Node) string {
	switch {
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Tag == "!!null":
		return "nothing"
	}
	return strconv.Quote(n.Value)
}

func fieldByTag(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		if tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ","); tag == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// present reports whether the top-level mapping has key.
func present(root *yaml.Node, key string) bool {
	n := root
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return true
		}
	}
	return false
}

// fileError rewrites the decoder's errors as name:line: message.
func fileError(name string, err error) error {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		var msgs []string
		for _, e := range te.Errors {
			if m := yamlLine.FindStringSubmatch(e); m != nil {
				msg := m[2]
				if u := unknownField.FindStringSubmatch(msg); u != nil {
					msg = fmt.Sprintf("unknown key %q (valid: %s)", u[1], validKeys(u[2]))
				}
				msgs = append(msgs, fmt.Sprintf("%s:%s: %s", name, m[1], msg))
			} else {
				msgs = append(msgs, fmt.Sprintf("%s: %s", name, e))
			}
		}
		return errors.New(strings.Join(msgs, "\n"))
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		return fmt.Errorf("%s:%s: %s", name, m[1], m[2])
	}
	return fmt.Errorf("%s: %s", name, msg)
}

func validKeys(typ string) string {
	var t reflect.Type
	switch typ {
	case "File":
		t = reflect.TypeFor[File]()
	case "Grid":
		t = reflect.TypeFor[Grid]()
	case "Comparison":
		t = reflect.TypeFor[Comparison]()
	case "Surface":
		t = reflect.TypeFor[Surface]()
	case "TournamentFile":
		t = reflect.TypeFor[TournamentFile]()
	default:
		return "see the README"
	}
	var keys []string
	for i := range t.NumField() {
		keys = append(keys, t.Field(i).Tag.Get("yaml"))
	}
	return strings.Join(keys, ", ")
}

// lineError is a validation error at a line of the file.
type lineError struct {
	line int
	msg  string
}

func (e lineError) Error() string { return e.msg }

func errAt(line int, format string, a ...any) error {
	return lineError{line, fmt.Sprintf(format, a...)}
}

// lineOf finds the line of a path of mapping keys (string) and sequence
// indices (int) in the document; it returns the deepest line found.
func lineOf(root *yaml.Node, path ...any) int {
	n := root
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line := n.Line
	for _, p := range path {
		var next *yaml.Node
		switch key := p.(type) {
		case string:
			if n.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(n.Content); i += 2 {
					if n.Content[i].Value == key {
						line = n.Content[i].Line
						next = n.Content[i+1]
					}
				}
			}
		case int:
			if n.Kind == yaml.SequenceNode && key < len(n.Content) {
				next = n.Content[key]
				line = next.Line
			}
		}
		if next == nil {
			return line
		}
		n = next
	}
	return line
}

var varRef = regexp.MustCompile(`\$\{([^}]*)\}`)

// validate checks the file and expands it into cells and comparisons.
func (e *Experiment) validate(root *yaml.Node) error {
	f := &e.File
	if strings.TrimSpace(f.Name) == "" {
		return errAt(lineOf(root), "name: missing; give the experiment a name")
	}
	if !present(root, "seed") {
		f.Seed = 1 // as in simulate
	}
	if present(root, "games") && (f.Games < 1 || f.Games > sim.MaxGames) {
		return errAt(lineOf(root, "games"), "games: %d, want 1 to %d (10^15) games per cell", f.Games, int64(sim.MaxGames))
	}
	if !present(root, "batch") {
		f.Batch = 10000
	}
	if f.Batch < 1 || f.Batch > sim.MaxGames {
		return errAt(lineOf(root, "batch"), "batch: %d, want 1 to %d games per batch (leave it out for 10000)", f.Batch, int64(sim.MaxGames))
	}
	if f.Tournament != nil {
		return e.tournament(root)
	}
	if f.Main == "" {
		f.Main = "turns"
	}
	m, err := ParseMetric(f.Main)
	if err != nil {
		return errAt(lineOf(root, "main"), "main: %v", err)
	}
	e.Main = m
	if len(f.Grids) == 0 {
		return errAt(lineOf(root, "grids"), "grids: missing; declare at least one grid of cells, or a tournament of strategies (see the README)")
	}
	for gi := range f.Grids {
		if err := e.expand(root, gi); err != nil {
			return err
		}
	}
	if len(e.Cells) > maxCells {
		return errAt(lineOf(root, "grids"), "%d cells: at most %d per experiment (a round robin of strategies is a tournament: declare tournament instead of grids)", len(e.Cells), maxCells)
	}
	e.label()
	for ci, c := range f.Compare {
		if err := e.comparison(root, ci, c); err != nil {
			return err
		}
	}
	if f.Surface != nil {
		if err := e.checkSurface(root); err != nil {
			return err
		}
	}
	if m.Kind == MetricPosition {
		for _, c := range e.Cells {
			if m.Position >= c.Config.Players {
				return errAt(lineOf(root, "main"), "main: %s, but cell %q has %d players", m, c.Label, c.Config.Players)
			}
		}
	}
	return nil
}

// emptyListHint says what to write instead of an empty list what: leaving
// it out only where that gives a default (grids and strategies have none).
func emptyListHint(what string) string {
	switch {
	case what == "grids":
		return "declare at least one grid, e.g. grids: [{}] for one cell of the defaults, or a tournament of strategies"
	case what == "strategies":
		return "give at least two strategies, e.g. [random, heuristic]"
	case what == "compare":
		return "give at least one comparison, or leave compare out for none"
	case strings.Contains(what, " "): // an entry of a mapping, e.g. lineups NAME
		return "give at least one value"
	}
	return "give at least one value, or leave " + what + " out for its default"
}

// expand adds the cells of grid gi.
func (e *Experiment) expand(root *yaml.Node, gi int) error {
	g := &e.File.Grids[gi]
	at := func(path ...any) int { return lineOf(root, append([]any{"grids", gi}, path...)...) }
	if len(g.Rules) == 0 {
		g.Rules = []string{"classic"}
	}
	if len(g.Players) == 0 {
		g.Players = []int{4}
	}
	if len(g.Options) == 0 {
		g.Options = ordered[map[string]string]{{"default", nil}}
	}
	if len(g.Lineups) == 0 {
		g.Lineups = ordered[[]string]{{"heuristic", []string{"heuristic"}}}
	}
	seats := sim.FixedSeats
	if g.Seats != "" {
		s, err := sim.ParseSeats(g.Seats)
		if err != nil {
			return errAt(at("seats"), "seats: %v", err)
		}
		seats = s
	}
	for _, v := range g.Vars {
		if len(v.Value) == 0 {
			return errAt(at("vars", v.Key), "vars: %s has no values", v.Key)
		}
		if slices.Contains([]string{"rules", "players", "options", "lineup"}, v.Key) {
			return errAt(at("vars", v.Key), "vars: %q is an axis name; choose another name", v.Key)
		}
	}
	for _, v := range g.Vars {
		if !e.uses(g, v.Key) {
			return errAt(at("vars", v.Key), "vars: %s is not used: no ${%s} in this grid's options or lineups, so its cells would be identical", v.Key, v.Key)
		}
	}
	// Every combination of the variables, in the order written.
	combos := [][]string{nil}
	for _, v := range g.Vars {
		var next [][]string
		for _, c := range combos {
			for _, val := range v.Value {
				next = append(next, append(slices.Clone(c), val))
			}
		}
		combos = next
	}
	subst := func(s string, combo []string, line int) (string, error) {
		var err error
		out := varRef.ReplaceAllStringFunc(s, func(ref string) string {
			name := varRef.FindStringSubmatch(ref)[1]
			for i, v := range g.Vars {
				if v.Key == name {
					return combo[i]
				}
			}
			err = errAt(line, "${%s}: no such variable in this grid (variables: %s)", name, varNames(g.Vars))
			return ref
		})
		return out, err
	}
	for ri, rname := range g.Rules {
		rs, err := engine.ParseRuleSet(rname)
		if err != nil {
			return errAt(at("rules", ri), "rules: %v", err)
		}
		for pi, players := range g.Players {
			if lo, hi := rs.PlayerRange(); players < lo || players > hi {
				return errAt(at("players", pi), "players: %d is out of range for %s (valid: %d to %d)", players, rs, lo, hi)
			}
			for _, opt := range g.Options {
				for _, lu := range g.Lineups {
					for _, combo := range combos {
						cell, err := e.cell(gi, rs, players, opt, lu, combo, seats, subst, at)
						if err != nil {
							return err
						}
						e.Cells = append(e.Cells, cell)
					}
				}
			}
		}
	}
	return nil
}

// uses reports whether a variable appears as ${name} in an option value or
// a strategy of grid g.
func (e *Experiment) uses(g *Grid, name string) bool {
	ref := "${" + name + "}"
	for _, o := range g.Options {
		for _, v := range o.Value {
			if strings.Contains(v, ref) {
				return true
			}
		}
	}
	for _, lu := range g.Lineups {
		for _, s := range lu.Value {
			if strings.Contains(s, ref) {
				return true
			}
		}
	}
	return false
}

func varNames[V any](vars ordered[V]) string {
	var n []string
	for _, v := range vars {
		n = append(n, v.Key)
	}
	if len(n) == 0 {
		return "none"
	}
	return strings.Join(n, ", ")
}

func (e *Experiment) cell(gi int, rs engine.RuleSet, players int, opt entry[map[string]string], lu entry[[]string], combo []string,
	seats sim.Seats, subst func(string, []string, int) (string, error), at func(...any) int) (Cell, error) {
	g := &e.File.Grids[gi]
	o := engine.DefaultOptions(rs)
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range opt.Value {
			if !yield(k) {
				return
			}
		}
	})
	for _, name := range names {
		line := at("options", opt.Key, name)
		v, err := subst(opt.Value[name], combo, line)
		if err != nil {
			return Cell{}, err
		}
		if err := o.Set(name, v); err != nil {
			return Cell{}, errAt(line, "options %s: %v", opt.Key, err)
		}
	}
	if err := o.Validate(players); err != nil {
		return Cell{}, errAt(at("options", opt.Key), "options %s with %s and %d players: %v", opt.Key, rs, players, err)
	}
	for _, name := range names {
		if (name == "target" && o.Scoring == engine.ScoreSingle) || (name == "losers-outcome" && o.Scoring != engine.ScoreLosersAccumulate) {
			scoring, _ := o.Get("scoring")
			w := fmt.Sprintf("%s:%d: options %s: %s has no effect with scoring=%s", e.Source, at("options", opt.Key, name), opt.Key, name, scoring)
			if !slices.Contains(e.Warnings, w) {
				e.Warnings = append(e.Warnings, w)
			}
		}
	}
	luLine := at("lineups", lu.Key)
	if len(lu.Value) != 1 && len(lu.Value) != players {
		return Cell{}, errAt(luLine, "lineups %s: %d strategies for %d players: give one for every seat, or one per seat", lu.Key, len(lu.Value), players)
	}
	var lineUp []strategy.Spec
	for i := range players {
		s, err := subst(lu.Value[min(i, len(lu.Value)-1)], combo, luLine)
		if err != nil {
			return Cell{}, err
		}
		sp, err := strategy.Parse(s)
		if err != nil {
			return Cell{}, errAt(luLine, "lineups %s: %v", lu.Key, err)
		}
		lineUp = append(lineUp, sp)
	}
	coords := map[string]string{"rules": rs.String(), "players": strconv.Itoa(players), "options": opt.Key, "lineup": lu.Key}
	for i, v := range g.Vars {
		coords[v.Key] = combo[i]
	}
	// Games is set again by Run (--games); 1 stands for a file that leaves it to --games.
	cfg := sim.Config{Options: o, Players: players, LineUp: lineUp, Seats: seats, Games: max(e.File.Games, 1), Seed: e.File.Seed}
	if err := cfg.Validate(); err != nil {
		return Cell{}, errAt(at(), "%v", err)
	}
	return Cell{Index: len(e.Cells), Grid: gi, Coords: coords, Config: cfg}, nil
}

// label names the cells by the axes that vary over the experiment.
func (e *Experiment) label() {
	axes := []string{"rules", "players", "options", "lineup"}
	for _, g := range e.File.Grids {
		for _, v := range g.Vars {
			if !slices.Contains(axes, v.Key) {
				axes = append(axes, v.Key)
			}
		}
	}
	for _, a := range axes {
		vals := map[string]bool{}
		for _, c := range e.Cells {
			vals[c.Coords[a]] = true
		}
		if len(vals) > 1 {
			e.Axes = append(e.Axes, a)
		}
	}
	for i := range e.Cells {
		c := &e.Cells[i]
		var parts []string
		for _, a := range e.Axes {
			v, ok := c.Coords[a]
			if !ok {
				continue
			}
			switch a {
			case "players":
				v += "p"
			case "rules", "options", "lineup":
			default:
				v = a + "=" + v
			}
			parts = append(parts, v)
		}
		if len(parts) == 0 {
			parts = []string{"all"}
		}
		c.Label = strings.Join(parts, " ")
		c.Slug = slug(fmt.Sprintf("%02d-%s", i, c.Label))
	}
}

func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

func (e *Experiment) comparison(root *yaml.Node, ci int, c Comparison) error {
	at := func(path ...any) int { return lineOf(root, append([]any{"compare", ci}, path...)...) }
	if c.Against != "" {
		if c.Axis != "" || c.Baseline != "" || len(c.Metrics) > 0 {
			return errAt(at(), "compare: against tests one metric of every cell; it takes metric, not axis, baseline or metrics")
		}
		m, err := ParseMetric(c.Metric)
		if err != nil {
			return errAt(at("metric"), "compare: %v", err)
		}
		if m.Numeric() {
			return errAt(at("metric"), "compare: against needs a yes/no metric (first-player, unfinished, position:K), not %s", m)
		}
		p := math.NaN()
		if c.Against != "fair" {
			p, err = strconv.ParseFloat(c.Against, 64)
			if err != nil || !(p > 0 && p < 1) {
				return errAt(at("against"), "compare: against %q, want fair (1/players) or a proportion strictly between 0 and 1", c.Against)
			}
		}
		if err := e.checkPositions(m, at("metric")); err != nil {
			return err
		}
		e.OneSample = append(e.OneSample, OneSample{m, p})
		return nil
	}
	if c.Metric != "" {
		return errAt(at("metric"), "compare: metric goes with against; a paired comparison takes metrics")
	}
	axes := []string{"rules", "players", "options", "lineup"}
	for _, g := range e.File.Grids {
		for _, v := range g.Vars {
			axes = append(axes, v.Key)
		}
	}
	if !slices.Contains(axes, c.Axis) {
		return errAt(at("axis"), "compare: axis %q (valid: %s)", c.Axis, strings.Join(slices.Compact(axes), ", "))
	}
	metrics := c.Metrics
	if len(metrics) == 0 {
		metrics = []string{"turns", "first-player", "unfinished"}
	}
	var ms []Metric
	for i, s := range metrics {
		m, err := ParseMetric(s)
		if err != nil {
			return errAt(at("metrics", i), "compare: %v", err)
		}
		if err := e.checkPositions(m, at("metrics", i)); err != nil {
			return err
		}
		ms = append(ms, m)
	}
	found := false
	for _, a := range e.Cells {
		found = found || a.Coords[c.Axis] == c.Baseline
	}
	if !found {
		return errAt(at("baseline"), "compare: baseline %q is not a value of axis %s", c.Baseline, c.Axis)
	}
	for _, a := range e.Cells {
		if v, ok := a.Coords[c.Axis]; !ok || v == c.Baseline {
			continue
		}
		b := e.partner(a, c.Axis, c.Baseline)
		if b < 0 {
			return errAt(at("baseline"), "compare: cell %q has no baseline cell with %s=%s in its grid", a.Label, c.Axis, c.Baseline)
		}
		e.Pairs = append(e.Pairs, Pair{A: a.Index, B: b, Axis: c.Axis, Metrics: ms})
	}
	return nil
}

func (e *Experiment) checkPositions(m Metric, line int) error {
	if m.Kind != MetricPosition {
		return nil
	}
	for _, c := range e.Cells {
		if m.Position >= c.Config.Players {
			return errAt(line, "compare: %s, but cell %q has %d players", m, c.Label, c.Config.Players)
		}
	}
	return nil
}

// partner is the cell of a's grid equal to a except for value on axis.
func (e *Experiment) partner(a Cell, axis, value string) int {
	for _, b := range e.Cells {
		if b.Grid != a.Grid || b.Coords[axis] != value {
			continue
		}
		same := true
		for k, v := range a.Coords {
			if k != axis && b.Coords[k] != v {
				same = false
			}
		}
		if same {
			return b.Index
		}
	}
	return -1
}

func (e *Experiment) checkSurface(root *yaml.Node) error {
	s := e.File.Surface
	at := func(k string) int { return lineOf(root, "surface", k) }
	m, err := ParseMetric(s.Metric)
	if err != nil {
		return errAt(at("metric"), "surface: %v", err)
	}
	if err := e.checkPositions(m, at("metric")); err != nil {
		return err
	}
	for _, k := range []struct{ key, v string }{{"rows", s.Rows}, {"cols", s.Cols}} {
		ok := false
		for _, c := range e.Cells {
			if _, has := c.Coords[k.v]; has {
				ok = true
			}
		}
		if !ok {
			return errAt(at(k.key), "surface: %s %q is not an axis of the experiment", k.key, k.v)
		}
	}
	if s.Rows == s.Cols {
		return errAt(at("cols"), "surface: rows and cols are both %q", s.Rows)
	}
	return nil
}

// maxCells caps a grid experiment: every cell is played on every game
// index, its stats held in memory and its column in the report. A round
// robin, whose pairs grow as the square of its strategies, is a tournament
// instead, which plays pair after pair and has no such cap.
const maxCells = 64

// tournament validates a tournament file.
func (e *Experiment) tournament(root *yaml.Node) error {
	f := &e.File
	for _, k := range []string{"grids", "compare", "surface", "main", "batch"} {
		if present(root, k) {
			return errAt(lineOf(root, k), "%s: a tournament file takes no %s (it plays every pair of its strategies, scored by wins); remove %s, or tournament for a grid experiment", k, k, k)
		}
	}
	tf := f.Tournament
	at := func(path ...any) int { return lineOf(root, append([]any{"tournament"}, path...)...) }
	t := &Tournament{}
	if len(tf.Strategies) < 2 {
		return errAt(at("strategies"), "tournament: strategies: %d given, a tournament needs at least two", len(tf.Strategies))
	}
	for i, s := range tf.Strategies {
		sp, err := strategy.Parse(s)
		if err != nil {
			return errAt(at("strategies", i), "tournament: strategies: %v", err)
		}
		for j, p := range t.Strategies {
			if p.String() == sp.String() {
				return errAt(at("strategies", i), "tournament: strategies: %s is given twice (also entry %d)", sp, j+1)
			}
		}
		t.Strategies = append(t.Strategies, sp)
	}
	rules := tf.Rules
	if rules == "" {
		rules = "classic"
	}
	rs, err := engine.ParseRuleSet(rules)
	if err != nil {
		return errAt(at("rules"), "tournament: rules: %v", err)
	}
	t.Options = engine.DefaultOptions(rs)
	for _, name := range slices.Sorted(maps.Keys(tf.Options)) {
		if err := t.Options.Set(name, tf.Options[name]); err != nil {
			return errAt(at("options", name), "tournament: options: %v", err)
		}
	}
	t.Players = tf.Players
	if len(t.Players) == 0 {
		t.Players = []int{2}
	}
	for i, n := range t.Players {
		if lo, hi := rs.PlayerRange(); n < lo || n > hi {
			return errAt(at("players", i), "tournament: players: %d is out of range for %s (valid: %d to %d)", n, rs, lo, hi)
		}
		if slices.Index(t.Players, n) < i {
			return errAt(at("players", i), "tournament: players: %d is given twice", n)
		}
		if err := t.Options.Validate(n); err != nil {
			return errAt(at("options"), "tournament: options with %s and %d players: %v", rs, n, err)
		}
		for _, sp := range t.Strategies {
			c := sim.Config{Options: t.Options, Players: n, LineUp: slices.Repeat([]strategy.Spec{sp}, n), Games: 1, Seed: f.Seed}
			if err := c.Validate(); err != nil {
				return errAt(at("strategies"), "tournament: %s with %d players: %v", sp, n, err)
			}
		}
	}
	t.GamesFor = make([]int64, len(t.Strategies))
	for _, key := range slices.Sorted(maps.Keys(tf.GamesFor)) {
		g := tf.GamesFor[key]
		line := at("games-for", key)
		if g < 1 || g > sim.MaxGames {
			return errAt(line, "tournament: games-for %s: %d, want 1 to %d games per pair", key, g, int64(sim.MaxGames))
		}
		named := tune.Named(t.Strategies, key)
		for _, i := range named {
			if t.GamesFor[i] == 0 || g < t.GamesFor[i] {
				t.GamesFor[i] = g
			}
		}
		found := len(named) > 0
		if !found {
			var names []string
			for _, sp := range t.Strategies {
				names = append(names, sp.String())
			}
			return errAt(line, "tournament: games-for %s: no such strategy in the tournament (strategies: %s)", key, strings.Join(names, ", "))
		}
	}
	e.Tour = t
	return nil
}
