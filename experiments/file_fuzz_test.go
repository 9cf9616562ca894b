package experiments

import (
	"os"
	"path/filepath"
	"testing"
)

// Parse never panics on any file, the built-in ones as seeds; a file it
// accepts has cells, or is a tournament.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("builtin/*.yaml")
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{"", "name: x\n", "name: x\ngames: 10\ngrids: [{}]\n", "name: x\ngrids: []\n",
		"name: x\ngames: 0x10\ngrids: [{}]\n", "name: x\ngrids:\n  - players: [2, 3]\n    vars: {a: [1, 2]}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := Parse("fuzz.yaml", data)
		if err != nil {
			return
		}
		if len(e.Cells) == 0 && e.File.Tournament == nil {
			t.Fatalf("accepted with no cell:\n%s", data)
		}
	})
}
