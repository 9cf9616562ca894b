// Package experiments declares and runs comparisons: an experiment file (YAML
// or JSON) lays out a grid of configurations, the cells, which are played on
// the same deals (common random numbers: game i of every cell uses the same
// seed and index), and the comparisons to make between cells, with paired
// tests (McNemar for who wins, paired differences for lengths) and Holm's
// correction across all the tests of an experiment. WriteOutputs writes the
// mergeable stats and the manifest first, then a CSV summary, the plots and
// a Markdown report (Render, again from the stats alone); Run checkpoints
// and resumes like sim.SimulateWith. Run plays on the one paired runner
// (package paired), each cell an entry of one configuration.
//
// A file may declare a tournament instead of grids (File.Tournament,
// validated into Experiment.Tour): a round robin of strategies, which is
// not run here but by the tournament code of tune and 'unosim tournament'
// (cmd/unosim runs it for 'experiment run'); CheckRun refuses it.
//
// Parsing is strict: unknown keys, wrong types and duplicate keys are errors
// that name the file and line. Everything is deterministic: the same file,
// seed and games give the same numbers for any worker count and shard split.
package experiments
