package experiments

import (
	"embed"
	"fmt"
	"path"
	"slices"
	"strings"
)

//go:embed builtin/*.yaml
var builtinFS embed.FS

// Builtin is a built-in experiment.
type Builtin struct {
	Name, Description string
}

// Builtins lists the built-in experiments.
func Builtins() []Builtin {
	entries, _ := builtinFS.ReadDir("builtin")
	var out []Builtin
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".yaml")
		x, err := LoadBuiltin(name)
		if err != nil {
			panic(fmt.Sprintf("built-in experiment %s: %v", name, err)) // a bug caught by the tests
		}
		out = append(out, Builtin{name, strings.TrimSpace(x.File.Description)})
	}
	return out
}

// BuiltinText is the file of a built-in experiment.
func BuiltinText(name string) ([]byte, error) {
	data, err := builtinFS.ReadFile(path.Join("builtin", name+".yaml"))
	if err != nil {
		var names []string
		entries, _ := builtinFS.ReadDir("builtin")
		for _, e := range entries {
			names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
		}
		slices.Sort(names)
		return nil, fmt.Errorf("no experiment file or built-in experiment %q (built-in: %s)", name, strings.Join(names, ", "))
	}
	return data, nil
}

// LoadBuiltin validates a built-in experiment.
func LoadBuiltin(name string) (*Experiment, error) {
	data, err := BuiltinText(name)
	if err != nil {
		return nil, err
	}
	return Parse("builtin:"+name, data)
}
