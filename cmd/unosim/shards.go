package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/unosim/unosim/experiments"
	"github.com/unosim/unosim/sim"
)

func newShardsCmd(a *app) *cobra.Command {
	var asJSON, allowMixed bool
	cmd := &cobra.Command{
		Use:   "shards DIR...",
		Short: "Show the state of the shards of a run: what is done, what to rerun",
		Long: `Read the output directories of the shards of one run (simulate or experiment run --shard i/n)
and print one line per directory: complete, partial (with the games done, resumed by rerunning
its command), empty (nothing done: killed before its first checkpoint), missing, foreign (another
run: what differs) or damaged; then the shard indices no directory holds and every reason a merge
would be refused. The exit code is 0 whatever the state (use merge to fail on problems).`,
		Example: `  unosim shards run/shard*
  unosim shards run/shard* --json`,
		Args: someArgs("the output directories of the shards of a run"),
		RunE: func(_ *cobra.Command, args []string) error {
			dirs, err := expandDirs(args)
			if err != nil {
				return err
			}
			recs := &records{}
			sv := sim.ReadSurvey(dirs, recs.load, allowMixed)
			if asJSON {
				data, err := json.MarshalIndent(sv, "", "  ")
				if err != nil {
					return runtimeError{err}
				}
				fmt.Fprintln(a.stdout, string(data))
				return nil
			}
			printSurvey(a, sv)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the state as one JSON object")
	cmd.Flags().BoolVar(&allowMixed, "allow-mixed-builds", false, "do not count shards of different builds as a problem")
	return cmd
}

func printSurvey(a *app, sv *sim.Survey) {
	tw := tabwriter.NewWriter(a.stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "shard\tdirectory\tstatus\tgames done\tof\tbuild\tdetail")
	for _, st := range sv.Shards {
		shard, done, of := st.Shard, "-", "-"
		if shard == "" {
			shard = "?"
		}
		if st.Planned != nil {
			done, of = thousands(st.GamesDone), thousands(st.GamesPlanned)
		}
		detail := st.Detail
		if st.State == sim.StateComplete {
			detail = ""
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", shard, st.Dir, st.State, done, of, shortBuild(st.Build), detail)
	}
	tw.Flush()
	counts := map[string]int{}
	for _, st := range sv.Shards {
		counts[st.State]++
	}
	var parts []string
	for _, s := range []string{sim.StateComplete, sim.StatePartial, sim.StateEmpty, sim.StateMissing, sim.StateForeign, sim.StateDamaged} {
		if counts[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[s], s))
		}
	}
	if sv.Count > 0 {
		fmt.Fprintf(a.stdout, "\n%s of a run in %s: %s", plural(len(sv.Shards), "directory", "directories"), plural(sv.Count, "shard", "shards"), strings.Join(parts, ", "))
	} else {
		fmt.Fprintf(a.stdout, "\n%s: %s", plural(len(sv.Shards), "directory", "directories"), strings.Join(parts, ", "))
	}
	if len(sv.Missing) > 0 {
		var m []string
		for _, i := range sv.Missing {
			m = append(m, fmt.Sprintf("%d", i))
		}
		which := "shards"
		if len(m) == 1 {
			which = "shard"
		}
		fmt.Fprintf(a.stdout, "; no directory of this run holds %s %s", which, strings.Join(m, ", "))
	}
	fmt.Fprintln(a.stdout)
	if sv.Ready {
		fmt.Fprintln(a.stdout, "ready to merge: unosim merge DIR... --out DIR")
		return
	}
	if r := sv.Rerun(); len(r) > 0 {
		fmt.Fprintf(a.stdout, "to rerun (the same command resumes): %s\n", strings.Join(r, "; "))
	}
	fmt.Fprintln(a.stdout, "not ready to merge:")
	for _, p := range sv.Problems {
		fmt.Fprintf(a.stdout, "  - %s\n", p)
	}
}

// shortBuild abbreviates a build for the table.
func shortBuild(b string) string {
	if len(b) > 32 {
		return b[:32] + "…"
	}
	return b
}

func newReportCmd(a *app) *cobra.Command {
	var pf plotFlags
	cmd := &cobra.Command{
		Use:   "report DIR",
		Short: "Render a run's report again from its stats.json",
		Long: `Render the files derived from a run's stats.json again: for an experiment, summary.csv, plots/
and report.md (and the manifest listing them); for simulate, summary.json, summary.csv, report.md and plots/ (as simulate --report writes them). Use it
after a failure left the data without its report (a full disk), or after a merge.`,
		Example: `  unosim report results/house-rules`,
		Args:    oneArg("the output directory of a run"),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			plots, err := pf.options(cmd.Flags())
			if err != nil {
				return err
			}
			if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
				return usagef("report %s: a file, not a run's output directory", dir)
			}
			format, err := statsFormat(dir)
			switch {
			case err != nil && !fileExists(dir):
				return usagef("report %s: no such directory", dir)
			case errors.Is(err, fs.ErrNotExist):
				return usagef("report %s: the directory holds no stats.json; report renders the --out of simulate, experiment run or merge (tournament and tune write their reports when they finish)", dir)
			case err != nil:
				return usageError{err}
			}
			switch format {
			case experiments.StatsFormat:
				f, err := experiments.ReadStats(dir)
				if err != nil {
					return usageError{err}
				}
				res, err := f.Result()
				if err != nil {
					return usageError{err}
				}
				if err := renderExperiment(dir, f, res, plots); err != nil {
					return runtimeError{err}
				}
				fmt.Fprintf(a.stdout, "rendered %s/report.md, summary.csv and plots/ from stats.json\n", dir)
			case sim.StatsFormat:
				f, err := sim.ReadStats(dir)
				if err != nil {
					return usageError{err}
				}
				if err := sim.WriteSummaries(dir, f, version); err != nil {
					return runtimeError{err}
				}
				if f.Stats.Games == 0 {
					fmt.Fprintf(a.stdout, "rendered %s/summary.json and summary.csv from stats.json (no game played: no report)\n", dir)
					break
				}
				if err := sim.WriteReport(dir, f, version, ""); err != nil {
					return runtimeError{err}
				}
				fmt.Fprintf(a.stdout, "rendered %s/summary.json, summary.csv, report.md and plots/ from stats.json\n", dir)
			default:
				return usagef("%s/stats.json: format %q is not a unosim record", dir, format)
			}
			return nil
		},
	}
	pf.register(cmd.Flags())
	return cmd
}

// expandDirs expands arguments that are patterns (shard-*) and name no
// file themselves: a container without a shell passes them quoted.
func expandDirs(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if !strings.ContainsAny(a, "*?[") || fileExists(a) {
			out = append(out, a)
			continue
		}
		m, err := filepath.Glob(a)
		if err != nil {
			return nil, usagef("pattern %q: %v", a, err)
		}
		if len(m) == 0 {
			return nil, usagef("pattern %q matches no directory", a)
		}
		out = append(out, m...)
	}
	return out, nil
}
