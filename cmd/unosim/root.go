package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/unosim/unosim/sim"
)

// version is the tool's version, reported by `unosim version` and in every result.
const version = "0.1.0"

// Exit codes.
const (
	exitOK          = 0
	exitFailure     = 1   // the work failed (I/O, ...)
	exitUsage       = 2   // bad input, refused before any work
	exitInterrupted = 130 // stopped by Ctrl-C or SIGTERM; partial results are marked incomplete
)

// usageError marks bad input; it exits with exitUsage.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// errInterrupted reports a run stopped by a signal after writing what it had.
var errInterrupted = errors.New("interrupted: the games finished so far were reported and marked incomplete")

// app carries what every command writes to.
type app struct {
	stdout, stderr io.Writer
	stderrIsTTY    bool
}

// run executes the command line and returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	a := &app{stdout: stdout, stderr: stderr, stderrIsTTY: isTerminal(stderr)}
	return execute(ctx, a, newRootCmd(a), args)
}

// execute runs root and maps its error to an exit code. A panic is a bug,
// never bad input: it exits 1 with its stack (Go itself would exit 2).
func execute(ctx context.Context, a *app, root *cobra.Command, args []string) (code int) {
	stderr := a.stderr
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintln(stderr, "unosim:", &sim.PanicError{Value: r, Stack: debug.Stack()})
			code = exitFailure
		}
	}()
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	var runtimeErr runtimeError
	var panicErr *sim.PanicError
	switch {
	case errors.As(err, &panicErr):
		fmt.Fprintln(stderr, "unosim:", panicErr)
		return exitFailure
	case err == nil:
		return exitOK
	case errors.Is(err, errInterrupted):
		fmt.Fprintln(stderr, "unosim:", err)
		return exitInterrupted
	case errors.As(err, &runtimeErr):
		fmt.Fprintln(stderr, "unosim:", err)
		return exitFailure
	default:
		// Flag and argument errors from cobra, and our usage errors.
		fmt.Fprintln(stderr, "unosim:", withCommands(root, args, err))
		fmt.Fprintln(stderr, "Run 'unosim help' or 'unosim COMMAND --help' for usage.")
		return exitUsage
	}
}

// runtimeError marks a failure of the work itself (exit 1), not of the input.
type runtimeError struct{ err error }

func (e runtimeError) Error() string { return e.err.Error() }
func (e runtimeError) Unwrap() error { return e.err }

func newRootCmd(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:   "unosim",
		Short: "Monte Carlo simulation and strategy research for UNO and its variants",
		Long: `unosim plays millions of seeded games of UNO (classic, UNO Party!, UNO: Encanto and
the common house rules) with pluggable strategies, and reports win rates, game lengths and
rule effects with confidence intervals. The same seed gives the same results on any machine,
for any number of workers and any split into shards.`,
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       version,
	}
	root.SetVersionTemplate("unosim {{.Version}}\n")
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	root.SetFlagErrorFunc(flagError)
	root.AddCommand(newSimulateCmd(a), newMatchCmd(a), newTournamentCmd(a), newTuneCmd(a), newRulesCmd(a), newStrategiesCmd(a), newReplayCmd(a), newMergeCmd(a), newShardsCmd(a), newReportCmd(a), newExperimentCmd(a), newVersionCmd(a), newCompareCmd(a))
	registerCompletions(root)
	root.InitDefaultCompletionCmd()
	root.InitDefaultHelpCmd()
	for _, c := range root.Commands() {
		switch c.Name() {
		case "completion":
			c.Args = cobra.NoArgs
			c.RunE = func(*cobra.Command, []string) error {
				return usagef("completion needs a shell: bash, zsh, fish or powershell")
			}
		case "help":
			// Cobra's help prints "Unknown help topic" and exits 0; a topic
			// that is no command is bad input.
			run := c.Run
			c.RunE = func(c *cobra.Command, args []string) error {
				if cmd, rest, err := root.Find(args); err != nil || len(rest) > 0 {
					return usagef("unknown help topic %q (valid: %s)", strings.Join(args, " "), strings.Join(commandNames(cmd), ", "))
				}
				run(c, args)
				return nil
			}
		}
	}
	return root
}

// versionInfo is what 'unosim version --json' prints.
type versionInfo struct {
	Version     string `json:"version"`
	Build       string `json:"build"`
	Go          string `json:"go,omitempty"`
	VCSRevision string `json:"vcs_revision,omitempty"`
	VCSModified string `json:"vcs_modified,omitempty"`
}

func thisVersion() versionInfo {
	v := versionInfo{Version: version, Build: sim.ThisBuild(version).Build}
	if bi, ok := debug.ReadBuildInfo(); ok {
		v.Go = bi.GoVersion
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.VCSRevision = s.Value
			case "vcs.modified":
				v.VCSModified = s.Value
			}
		}
	}
	return v
}

func newVersionCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version of unosim and of the Go toolchain that built it",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			v := thisVersion()
			if asJSON {
				return printJSON(a.stdout, v)
			}
			fmt.Fprintf(a.stdout, "unosim %s\n", v.Version)
			fmt.Fprintf(a.stdout, "build %s\n", v.Build)
			if v.Go != "" {
				fmt.Fprintf(a.stdout, "go %s\n", v.Go)
			}
			if v.VCSRevision != "" {
				fmt.Fprintf(a.stdout, "vcs.revision %s\n", v.VCSRevision)
			}
			if v.VCSModified != "" {
				fmt.Fprintf(a.stdout, "vcs.modified %s\n", v.VCSModified)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print version, build, go and the VCS revision as one JSON object")
	return cmd
}

// withCommands adds the valid choices to cobra's "unknown command" error,
// which names only what was given.
func withCommands(root *cobra.Command, args []string, err error) error {
	if !strings.HasPrefix(err.Error(), "unknown command") {
		return err
	}
	cmd, _, _ := root.Find(args) // the command whose subcommand is unknown
	names := commandNames(cmd)
	if len(names) == 0 {
		return err
	}
	first, rest, _ := strings.Cut(strings.TrimRight(err.Error(), "\n"), "\n") // rest: "Did you mean this?"
	if rest != "" {
		rest = "\n" + rest
	}
	return fmt.Errorf("%s (valid: %s)%s", first, strings.Join(names, ", "), rest)
}

// commandNames are the subcommands of cmd one may run.
func commandNames(cmd *cobra.Command) []string {
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() && c.Name() != "help" {
			names = append(names, c.Name())
		}
	}
	return names
}
