package main

import (
	"bytes"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// readmeCommands returns the unosim command lines of the README's sh
// blocks, continuation lines joined and comments dropped, leaving out the
// synopsis lines with placeholders (FILE, DIR, [flags], ...).
func readmeCommands(t *testing.T, readme string) [][]string {
	t.Helper()
	var cmds [][]string
	placeholder := regexp.MustCompile(`\b(FILE|NAME|DIR|S|I|N)\b|\[flags\]|\|`)
	for _, block := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(readme, -1) {
		text := strings.ReplaceAll(block[1], "\\\n", " ")
		for _, line := range strings.Split(text, "\n") {
			line = strings.TrimSpace(line)
			if i := strings.Index(line, "#"); i >= 0 {
				line = strings.TrimSpace(line[:i])
			}
			line = strings.ReplaceAll(line, "${SLURM_ARRAY_TASK_ID}", "3")
			if !strings.HasPrefix(line, "unosim ") || placeholder.MatchString(line) {
				continue
			}
			cmds = append(cmds, strings.Fields(line)[1:])
		}
	}
	return cmds
}

// Every command of the README runs (with few games), in a directory that
// holds the README's example experiment file as my.yaml.
func TestREADMECommandsRun(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	m := regexp.MustCompile("(?s)```yaml\n(name:.*?)```").FindStringSubmatch(readme)
	if m == nil {
		t.Fatal("the README has no example experiment file")
	}
	t.Chdir(t.TempDir())
	if err := os.WriteFile("my.yaml", []byte(m[1]), 0o644); err != nil {
		t.Fatal(err)
	}
	cmds := readmeCommands(t, readme)
	counts := map[string]int{}
	for _, args := range cmds {
		run := args
		switch {
		case args[0] == "simulate" || args[0] == "compare":
			run = append(append([]string{}, args...), "--games", "240", "--quiet")
		case args[0] == "experiment" && args[1] == "run":
			run = append(append([]string{}, args...), "--games", "24", "--quiet")
		}
		code, out, stderr := unosim(t, run...)
		if code != 0 {
			t.Errorf("README: unosim %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
		} else if out == "" {
			t.Errorf("README: unosim %s printed nothing", strings.Join(args, " "))
		}
		counts[args[0]]++
	}
	if counts["simulate"] < 5 || counts["experiment"] < 5 || counts["replay"] < 1 {
		t.Fatalf("found %v README commands: the extraction missed some", counts)
	}
}

// Every example of every command's --help runs too (with few games).
func TestHelpExamplesRun(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```yaml\n(name:.*?)```").FindStringSubmatch(string(data))
	t.Chdir(t.TempDir())
	os.WriteFile("my-experiment.yaml", []byte(m[1]), 0o644)
	var all []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		all = append(all, c)
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(newRootCmd(&app{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}))
	var lines [][2]string // command path, example line
	var late [][2]string  // merge, shards and report: they read what the others wrote
	for _, c := range all {
		for _, line := range strings.Split(c.Example, "\n") {
			if i := strings.Index(line, "#"); i >= 0 {
				line = line[:i]
			}
			if f := strings.Fields(line); len(f) > 1 && f[0] == "unosim" {
				if f[1] == "merge" || f[1] == "shards" || f[1] == "report" {
					late = append(late, [2]string{c.CommandPath(), line})
				} else {
					lines = append(lines, [2]string{c.CommandPath(), line})
				}
			}
		}
	}
	n := 0
	// merge and shards last: they read the shard the simulate example
	// writes (run/shard0, of 240 games) with the other three made here.
	for i, ex := range append(lines, late...) {
		if i == len(lines) {
			for i := 1; i < 4; i++ {
				unosim(t, "simulate", "--games", "240", "--shard", strconv.Itoa(i)+"/4", "--out", "run/shard"+strconv.Itoa(i), "--quiet")
			}
		}
		args := strings.Fields(ex[1])[1:]
		for i, a := range args {
			args[i] = strings.Trim(a, "'") // as a shell would
		}
		run := append([]string{}, args...)
		switch {
		case args[0] == "simulate" || args[0] == "compare":
			run = append(run, "--games", "240", "--quiet")
		case args[0] == "experiment" && args[1] == "run":
			run = append(run, "--games", "24", "--quiet")
		}
		if code, _, stderr := unosim(t, run...); code != 0 {
			t.Errorf("%s --help example %q: exit %d\n%s", ex[0], ex[1], code, stderr)
		}
		n++
	}
	if n < 10 {
		t.Fatalf("ran %d examples", n)
	}
}
