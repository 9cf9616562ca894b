package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPlotFlags: --formats, --dpi and --no-plots of experiment run and
// report; bad values are refused with exit 2 before anything is played.
func TestPlotFlags(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "tiny.yaml")
	if err := os.WriteFile(file, []byte(tinyExperiment), 0o644); err != nil {
		t.Fatal(err)
	}
	pdf := filepath.Join(dir, "pdf")
	if code, _, stderr := unosim(t, "experiment", "run", file, "--out", pdf, "--quiet", "--formats", "pdf,png", "--dpi", "72"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var m struct{ Files []string }
	data, _ := os.ReadFile(filepath.Join(pdf, "manifest.json"))
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(m.Files, "plots/game-length.pdf") || !slices.Contains(m.Files, "plots/game-length.png") || slices.Contains(m.Files, "plots/game-length.svg") {
		t.Errorf("manifest files %q", m.Files)
	}
	if head, _ := os.ReadFile(filepath.Join(pdf, "plots", "game-length.pdf")); !strings.HasPrefix(string(head), "%PDF-") {
		t.Error("game-length.pdf is not a PDF")
	}
	report, _ := os.ReadFile(filepath.Join(pdf, "report.md"))
	if !strings.Contains(string(report), "![Game length by cell](plots/game-length.png)") || !strings.Contains(string(report), "[PDF](plots/game-length.pdf)") {
		t.Errorf("report.md does not show the PNG and link the PDF")
	}

	none := filepath.Join(dir, "none")
	if code, _, stderr := unosim(t, "experiment", "run", file, "--out", none, "--quiet", "--no-plots"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if fileExists(filepath.Join(none, "plots")) {
		t.Error("--no-plots wrote plots/")
	}
	if report, _ := os.ReadFile(filepath.Join(none, "report.md")); strings.Contains(string(report), "## Plots") || !strings.Contains(string(report), "## Findings") {
		t.Error("--no-plots: the report lists plots, or has no findings")
	}
	// report renders the plots again, in the formats asked.
	if code, _, stderr := unosim(t, "report", none, "--formats", "svg"); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	if !fileExists(filepath.Join(none, "plots", "game-length.svg")) || fileExists(filepath.Join(none, "plots", "game-length.png")) {
		t.Error("report --formats svg did not write only SVG")
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--formats", "gif"}, `plot format "gif": want a comma-separated list of png, svg, pdf`},
		{[]string{"--dpi", "0"}, "--dpi 0: want 1 to 1200"},
		{[]string{"--dpi", "5000"}, "--dpi 5000: want 1 to 1200"},
		{[]string{"--no-plots", "--formats", "svg"}, "--no-plots cannot be combined with --formats or --dpi"},
	} {
		out := filepath.Join(dir, "bad")
		code, _, stderr := unosim(t, append([]string{"experiment", "run", file, "--out", out, "--quiet"}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
		if fileExists(out) {
			t.Errorf("%q: the refused run left %s", tc.args, out)
		}
	}
}
