package main

import (
	"encoding/json"
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/unosim/unosim/experiments"
	"github.com/unosim/unosim/sim"
)

func newMergeCmd(a *app) *cobra.Command {
	var out string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "merge DIR... --out DIR",
		Short: "Merge the output directories of the shards of one run",
		Long: `Merge the stats.json of the shards of one run (simulate --shard i/n --out DIR). The shards
must share configuration and seed and cover every game index exactly once. The merged
summary.json, summary.csv and stats.json are those of a single run of all the games.`,
		Example: `  unosim merge run/shard0 run/shard1 run/shard2 --out run/all`,
		Args:    someArgs("the output directories of the shards to merge"),
		RunE: func(_ *cobra.Command, dirs []string) error {
			if out == "" {
				return usagef("merge needs --out DIR, a new directory for the merged result")
			}
			format, err := statsFormat(dirs[0])
			if err != nil {
				return usageError{err}
			}
			if format == experiments.StatsFormat {
				return mergeExperiment(a, dirs, out)
			}
			var files []*sim.StatsFile
			for _, d := range dirs {
				f, err := sim.ReadStats(d)
				if err != nil {
					return usageError{err}
				}
				files = append(files, f)
			}
			merged, err := sim.Merge(files, dirs)
			if err != nil {
				return usageError{err}
			}
			if err := sim.PrepareOut(out); err != nil {
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
	cmd.Flags().StringVar(&out, "out", "", "new directory for the merged result")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the merged result as JSON")
	return cmd
}

// statsFormat reads the format of the stats.json in dir.
func statsFormat(dir string) (string, error) {
	var head struct {
		Format string `json:"format"`
	}
	_, err := sim.ReadRecord(dir, &head)
	return head.Format, err
}

func mergeExperiment(a *app, dirs []string, out string) error {
	var files []*experiments.StatsFile
	for _, d := range dirs {
		f, err := experiments.ReadStats(d)
		if err != nil {
			return usageError{err}
		}
		files = append(files, f)
	}
	merged, err := experiments.Merge(files, dirs)
	if err != nil {
		return usageError{err}
	}
	if err := sim.PrepareOut(out); err != nil {
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
