package sim

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Header is what the shard checks need from a record of any kind
// (simulate's or an experiment's stats.json).
type Header struct {
	Format   string
	Run      []Field // the run's identity, field by field
	Total    int64   // the games of the whole run (per cell for experiments)
	Shard    Shard
	Planned  [2]int64 // the shard's game indices
	Done     [2]int64 // the game indices played
	Complete bool
	Producer Producer
}

// Loader reads and checks the record in dir. It is called only for
// directories that hold a stats.json; an error means the record is damaged
// and names the file and the inconsistency.
type Loader func(dir string) (*Header, error)

// The states of a shard's directory.
const (
	StateComplete = "complete" // every game of the shard played
	StatePartial  = "partial"  // interrupted: a rerun of its command resumes it
	StateEmpty    = "empty"    // no record: killed before its first checkpoint, nothing done
	StateMissing  = "missing"  // the directory does not exist
	StateForeign  = "foreign"  // another run (configuration, seed or games differ) or another kind of record
	StateDamaged  = "damaged"  // unreadable or inconsistent
)

// ShardStatus is one directory of a sharded run.
type ShardStatus struct {
	Dir          string    `json:"dir"`
	Shard        string    `json:"shard,omitempty"` // i/n, when a record says so
	State        string    `json:"status"`
	Done         *[2]int64 `json:"done_range,omitempty"`
	Planned      *[2]int64 `json:"planned_range,omitempty"`
	GamesDone    int64     `json:"games_done"`
	GamesPlanned int64     `json:"games_planned"`
	Build        string    `json:"build,omitempty"`
	Detail       string    `json:"detail,omitempty"`

	header *Header
	file   bool // Dir is a file
}

// fileAbove is the file that dir lies under, if one does (stat then
// fails with "not a directory").
func fileAbove(dir string) string {
	for p := filepath.Dir(dir); p != filepath.Dir(p); p = filepath.Dir(p) {
		if fi, err := os.Stat(p); err == nil {
			if !fi.IsDir() {
				return p
			}
			return ""
		}
	}
	return ""
}

// Survey is the state of the directories of a sharded run: what a user
// needs to decide what to rerun, and everything that stops a merge.
type Survey struct {
	Shards   []ShardStatus `json:"shards"`
	Count    int           `json:"shard_count"` // n of the run's i/n (0: no record read)
	Missing  []int         `json:"missing"`     // shard indices that no directory holds
	Problems []string      `json:"problems"`    // every reason a merge would be refused
	Ready    bool          `json:"ready"`       // the shards merge
}

// ReadSurvey reads every directory and checks them together: one run,
// one build (unless allowMixed), every shard index present once and
// complete. It lists every problem, not only the first.
func ReadSurvey(dirs []string, load Loader, allowMixed bool) *Survey {
	sv := &Survey{Missing: []int{}, Problems: []string{}}
	for _, d := range dirs {
		st := ShardStatus{Dir: d}
		if fi, err := os.Stat(d); err != nil {
			st.State, st.Detail = StateMissing, "no such directory"
			if f := fileAbove(d); f != "" {
				st.Detail = fmt.Sprintf("no such directory (%s is a file)", f)
			} else if !errors.Is(err, fs.ErrNotExist) {
				st.State, st.Detail = StateDamaged, err.Error()
			}
		} else if !fi.IsDir() {
			st.State, st.Detail, st.file = StateDamaged, "a file, not a run's output directory", true
		} else if _, err := os.Stat(filepath.Join(d, "stats.json")); errors.Is(err, fs.ErrNotExist) {
			st.State, st.Detail = StateEmpty, "no stats.json: nothing done (killed before its first checkpoint?)"
		} else if h, err := load(d); err != nil {
			st.State, st.Detail = StateDamaged, err.Error()
		} else {
			st.header = h
			st.Shard, st.Build = h.Shard.String(), h.Producer.Build
			st.Done, st.Planned = &[2]int64{h.Done[0], h.Done[1]}, &[2]int64{h.Planned[0], h.Planned[1]}
			st.GamesDone, st.GamesPlanned = h.Done[1]-h.Done[0], h.Planned[1]-h.Planned[0]
			st.State = StatePartial
			if h.Complete {
				st.State = StateComplete
			}
		}
		sv.Shards = append(sv.Shards, st)
	}
	ref := sv.reference()
	if ref == nil {
		sv.problems(allowMixed)
		return sv
	}
	for i := range sv.Shards {
		st := &sv.Shards[i]
		h := st.header
		if h == nil {
			continue
		}
		if h.Format != ref.Format {
			st.State, st.Detail = StateForeign, fmt.Sprintf("another kind of record: %s vs %s", h.Format, ref.Format)
		} else if d := Diff(h.Run, ref.Run); len(d) > 0 {
			st.State, st.Detail = StateForeign, "another run: "+strings.Join(d, ", ")+" (this one vs the others)"
		} else if st.State == StatePartial {
			st.Detail = fmt.Sprintf("games [%d, %d) of [%d, %d) played: rerun its command to resume", h.Done[0], h.Done[1], h.Planned[0], h.Planned[1])
		}
	}
	sv.problems(allowMixed)
	return sv
}

// reference is the header of the run most directories hold (the first
// among equals), which the others are compared with.
func (sv *Survey) reference() *Header {
	count := map[string]int{}
	var best *Header
	bestN := 0
	for _, st := range sv.Shards {
		if st.header == nil {
			continue
		}
		k := runKey(st.header)
		count[k]++
		if count[k] > bestN {
			best, bestN = st.header, count[k]
		}
	}
	return best
}

func runKey(h *Header) string {
	var b strings.Builder
	b.WriteString(h.Format)
	for _, f := range h.Run {
		b.WriteString("\x00" + f.Name + "=" + f.Value)
	}
	return b.String()
}

func (sv *Survey) problems(allowMixed bool) {
	add := func(format string, a ...any) { sv.Problems = append(sv.Problems, fmt.Sprintf(format, a...)) }
	counts := map[int]int{}
	for _, st := range sv.Shards {
		if st.header != nil && st.State != StateForeign {
			counts[st.header.Shard.Count]++
		}
	}
	for n, c := range counts {
		if c > counts[sv.Count] || (c == counts[sv.Count] && n < sv.Count) {
			sv.Count = n
		}
	}
	seen := map[int]string{}
	builds := map[Producer][]string{}
	var buildOrder []Producer
	var ranges [][2]int64
	var names []string
	total := int64(-1)
	for _, st := range sv.Shards {
		name := st.Dir
		if st.Shard != "" {
			name += " (shard " + st.Shard + ")"
		}
		switch {
		case st.file:
			add("%s is a file, not a run's output directory: name the --out directories of the shards", name)
		case st.State == StateMissing, st.State == StateEmpty, st.State == StateDamaged, st.State == StateForeign:
			add("%s: %s: %s", name, st.State, st.Detail)
		case st.State == StatePartial:
			add("%s: incomplete: %s", name, st.Detail)
		}
		h := st.header
		if h == nil || st.State == StateForeign {
			continue
		}
		total = h.Total
		if h.Shard.Count != sv.Count {
			add("%s: shard %s, but the others are shards of %d", name, h.Shard, sv.Count)
		} else if other, dup := seen[h.Shard.Index]; dup {
			add("%s: overlaps %s (both hold shard %s): give each shard once", name, other, h.Shard)
		} else {
			seen[h.Shard.Index] = st.Dir
		}
		if _, ok := builds[h.Producer]; !ok {
			buildOrder = append(buildOrder, h.Producer)
		}
		builds[h.Producer] = append(builds[h.Producer], h.Shard.String())
		if st.State == StateComplete {
			ranges, names = append(ranges, h.Done), append(names, st.Dir)
		}
	}
	if sv.Count > 0 {
		for i := range sv.Count {
			if _, ok := seen[i]; !ok {
				sv.Missing = append(sv.Missing, i)
			}
		}
	}
	if len(sv.Missing) > 0 {
		var s []string
		for _, i := range sv.Missing {
			s = append(s, fmt.Sprintf("%d/%d", i, sv.Count))
		}
		add("shards %s: no directory of this run holds them (run them, or name their directories)", strings.Join(s, ", "))
	}
	if len(buildOrder) > 1 && !allowMixed {
		var s []string
		for _, p := range buildOrder {
			s = append(s, fmt.Sprintf("%s (shards %s)", p, strings.Join(builds[p], ", ")))
		}
		add("the shards come from %d different builds: %s; rerun them with one build, or pass --allow-mixed-builds", len(buildOrder), strings.Join(s, " and "))
	}
	if len(sv.Problems) == 0 && total >= 0 {
		if _, err := ShardOrder(ranges, names, total); err != nil {
			add("%s", strings.TrimPrefix(err.Error(), "merge: "))
		}
	}
	if len(sv.Problems) == 0 && total < 0 {
		add("nothing to merge: no directory holds a record")
	}
	sv.Ready = len(sv.Problems) == 0
}

// Err is nil when the shards merge, otherwise one error listing every problem.
func (sv *Survey) Err() error {
	if sv.Ready {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "merge refused: %d problem", len(sv.Problems))
	if len(sv.Problems) > 1 {
		b.WriteString("s")
	}
	b.WriteString(":")
	for _, p := range sv.Problems {
		b.WriteString("\n  - " + p)
	}
	b.WriteString("\n'unosim shards DIR...' shows the state of every shard")
	return errors.New(b.String())
}

// Rerun lists the shards a user should run (again) for the run to be
// mergeable: partial, empty (by directory), missing indices.
func (sv *Survey) Rerun() []string {
	var out []string
	for _, st := range sv.Shards {
		switch st.State {
		case StatePartial:
			out = append(out, "shard "+st.Shard+" ("+st.Dir+", resumes)")
		case StateEmpty:
			out = append(out, st.Dir+" (nothing done)")
		case StateMissing:
			out = append(out, st.Dir+" (missing)")
		}
	}
	for _, i := range sv.Missing {
		out = append(out, "shard "+strconv.Itoa(i)+"/"+strconv.Itoa(sv.Count))
	}
	return slices.Compact(out)
}
