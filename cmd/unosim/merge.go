package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/unosim/unosim/experiments"
	"github.com/unosim/unosim/sim"
)

func newMergeCmd(a *app) *cobra.Command {
	var out string
	var asJSON, allowMixed bool
	cmd := &cobra.Command{
		Use:   "merge DIR... --out DIR",
		Short: "Merge the output directories of the shards of one run",
		Long: `Merge the stats.json of the shards of one run (simulate or experiment run --shard i/n --out DIR).
The shards must share configuration and seed, come from one build, be complete, and cover every
game index exactly once; every record is checked for consistency. When they do not, merge lists
every problem at once (missing, incomplete, foreign or damaged shards, what differs) and exits 2;
'unosim shards DIR...' shows the same as a table. The merged result is that of a single run of
all the games. Rerunning a merge into the same --out rewrites the same result.`,
		Example: `  unosim merge run/shard0 run/shard1 run/shard2 run/shard3 --out run/all
  unosim merge run/shard* --out run/all --json
  unosim merge 'run/shard*' --out run/all   # without a shell: unosim expands the pattern`,
		Args: someArgs("the output directories of the shards to merge"),
		RunE: func(_ *cobra.Command, args []string) error {
			if out == "" {
				return usagef("merge needs --out DIR, a new directory for the merged result")
			}
			dirs, err := expandDirs(args)
			if err != nil {
				return err
			}
			recs := &records{}
			sv := sim.ReadSurvey(dirs, recs.load, allowMixed)
			if err := sv.Err(); err != nil {
				return usageError{err}
			}
			var order []string
			for _, st := range sv.Shards {
				order = append(order, st.Dir)
			}
			if err := prepareMergeOut(out, dirs, order[0]); err != nil {
				return usageError{err}
			}
			if exp := recs.experiments(order); exp != nil {
				return mergeExperiment(a, exp, order, out, allowMixed)
			}
			merged, err := sim.Merge(recs.sims(order), order, allowMixed)
			if err != nil {
				return usageError{err}
			}
			if err := sim.WriteOutputs(out, merged, version); err != nil {
				return runtimeError{err}
			}
			sum := merged.Summary(version)
			if asJSON {
				data, err := json.MarshalIndent(sum, "", "  ")
				if err != nil {
					return runtimeError{err}
				}
				fmt.Fprintln(a.stdout, string(data))
				return nil
			}
			printSummary(a.stdout, sum)
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "directory for the merged result (new, or an earlier merge of the same shards)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the merged result as JSON")
	cmd.Flags().BoolVar(&allowMixed, "allow-mixed-builds", false, "merge shards made by different builds of unosim (the record lists them)")
	return cmd
}

// prepareMergeOut makes --out ready: new, empty, or an earlier merge of
// the same run as shard's (rewritten: a merge is deterministic), never one
// of the shards.
func prepareMergeOut(out string, dirs []string, shard string) error {
	abs, _ := filepath.Abs(out)
	for _, d := range dirs {
		if da, _ := filepath.Abs(d); da == abs {
			return fmt.Errorf("--out %s is one of the shards: choose a new directory", out)
		}
	}
	has, err := sim.OpenOut(out, false)
	if err != nil {
		return err
	}
	if has {
		var head struct {
			Shard string `json:"shard"`
		}
		if _, err := sim.ReadRecord(out, &head); err != nil || head.Shard != "merged" {
			return fmt.Errorf("--out %s holds a run's record, not a merge: choose a new directory", out)
		}
		// The merge of another run would be overwritten (and an experiment's
		// report and manifest left beside a simulate record).
		there, err := (&records{}).load(out)
		if err != nil {
			return fmt.Errorf("--out %s holds a damaged merge (%v): choose a new directory", out, err)
		}
		here, err := (&records{}).load(shard)
		if err != nil {
			return err
		}
		diff := sim.Diff(there.Run, here.Run)
		if there.Format != here.Format {
			diff = []string{fmt.Sprintf("another kind of record, %s vs %s", there.Format, here.Format)}
		}
		if len(diff) > 0 {
			return fmt.Errorf("--out %s holds the merge of another run: %s (there vs here): choose a new directory", out, strings.Join(diff, ", "))
		}
	}
	return nil
}

// records reads the stats.json of shard directories once, for the survey
// and then the merge.
type records struct {
	sim map[string]*sim.StatsFile
	exp map[string]*experiments.StatsFile
}

// load reads and checks the record of dir, of either kind.
func (r *records) load(dir string) (*sim.Header, error) {
	format, err := statsFormat(dir)
	if err != nil {
		return nil, err
	}
	switch format {
	case sim.StatsFormat:
		f, err := sim.ReadStats(dir)
		if err != nil {
			return nil, err
		}
		if r.sim == nil {
			r.sim = map[string]*sim.StatsFile{}
		}
		r.sim[dir] = f
		return f.Header(), nil
	case experiments.StatsFormat:
		f, err := experiments.ReadStats(dir)
		if err != nil {
			return nil, err
		}
		if r.exp == nil {
			r.exp = map[string]*experiments.StatsFile{}
		}
		r.exp[dir] = f
		return f.Header(), nil
	}
	return nil, fmt.Errorf("%s: format %q is not a unosim record (want %s or %s)", filepath.Join(dir, "stats.json"), format, sim.StatsFormat, experiments.StatsFormat)
}

func (r *records) sims(dirs []string) []*sim.StatsFile {
	var out []*sim.StatsFile
	for _, d := range dirs {
		out = append(out, r.sim[d])
	}
	return out
}

// experiments returns the experiment records of dirs (nil: they are simulate's).
func (r *records) experiments(dirs []string) []*experiments.StatsFile {
	if len(r.exp) == 0 {
		return nil
	}
	var out []*experiments.StatsFile
	for _, d := range dirs {
		out = append(out, r.exp[d])
	}
	return out
}

// statsFormat reads the format of the stats.json in dir.
func statsFormat(dir string) (string, error) {
	var head struct {
		Format string `json:"format"`
	}
	_, err := sim.ReadRecord(dir, &head)
	return head.Format, err
}

func mergeExperiment(a *app, files []*experiments.StatsFile, dirs []string, out string, allowMixed bool) error {
	merged, err := experiments.Merge(files, dirs, allowMixed)
	if err != nil {
		return usageError{err}
	}
	if err := experiments.WriteOutputs(out, merged, version, runtime.Version()); err != nil {
		return runtimeError{err}
	}
	res, err := merged.Result()
	if err != nil {
		return runtimeError{err}
	}
	printExperiment(a, res, out)
	return nil
}
