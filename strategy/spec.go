package strategy

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/unosim/unosim/engine"
)

// Param documents one strategy parameter.
type Param struct {
	Name, Default, Values, Doc string
}

// Info documents one strategy.
type Info struct {
	Name, Doc string
	Params    []Param
}

var heuristicParams = []Param{
	{"bluff", "0", "probability 0-1", "chance of playing a Wild Draw Four as a bluff when it could"},
	{"challenge", "seen", "never, always, seen, or a probability 0-1", "when to challenge a Wild Draw Four: seen estimates the bluff chance from the cards seen and the hand size"},
	{"threshold", "0.3", "probability 0-1", "with challenge=seen: challenge when the estimated bluff chance exceeds this"},
	{"forget", "0", "probability 0-1", "chance of not calling UNO"},
	{"catch", "1", "probability 0-1", "chance of catching a player who did not call UNO"},
	{"jump", "1", "probability 0-1", "chance of jumping in when it can (jump-in rules)"},
	{"speed", "1", "number > 0", "reaction speed in jump-in races"},
}

var infos = []Info{
	{Name: "random", Doc: "the baseline: a uniformly random playable card instance, never draws voluntarily, plays a playable drawn card, random colors, never bluffs, never challenges, always calls UNO, never catches; uniform among any other choice"},
	{Name: "heuristic", Doc: "a sensible player: keeps wilds, plays toward its longest color, dumps points and hits the next player when an opponent is close to going out, names its strongest color, stacks when it can", Params: heuristicParams},
}

// Available lists the strategies and their parameters.
func Available() []Info { return slices.Clone(infos) }

func names() string {
	n := make([]string, len(infos))
	for i, in := range infos {
		n[i] = in.Name
	}
	return strings.Join(n, ", ")
}

// Spec is a parsed, validated strategy specification. New makes instances.
type Spec struct {
	name      string
	heuristic Heuristic
	params    string // canonical parameter list
}

// Name is the strategy's name.
func (s Spec) Name() string { return s.name }

// String is the canonical specification: the name, then every parameter
// that differs from its default, in the documented order.
func (s Spec) String() string {
	if s.params == "" {
		return s.name
	}
	return s.name + ":" + s.params
}

// New makes a fresh instance; each worker needs its own.
func (s Spec) New() engine.Strategy {
	if s.name == "heuristic" {
		h := s.heuristic
		return &h
	}
	return &Random{}
}

// MustParse is Parse for specifications known to be valid; it panics otherwise.
func MustParse(spec string) Spec {
	s, err := Parse(spec)
	if err != nil {
		panic(err)
	}
	return s
}

// Parse reads a specification NAME[:KEY=VALUE,...], for example
// "heuristic:bluff=0.3,challenge=seen". Unknown names, parameters and
// values are errors that list the valid choices.
func Parse(spec string) (Spec, error) {
	name, args, _ := strings.Cut(strings.TrimSpace(spec), ":")
	name = strings.ToLower(strings.TrimSpace(name))
	var info *Info
	for i := range infos {
		if infos[i].Name == name {
			info = &infos[i]
		}
	}
	if info == nil {
		return Spec{}, fmt.Errorf("unknown strategy %q (valid: %s)", name, names())
	}
	s := Spec{name: name, heuristic: DefaultHeuristic()}
	set := map[string]string{}
	if strings.TrimSpace(args) != "" {
		for _, kv := range strings.Split(args, ",") {
			k, v, ok := strings.Cut(kv, "=")
			k, v = strings.ToLower(strings.TrimSpace(k)), strings.ToLower(strings.TrimSpace(v))
			if !ok || k == "" || v == "" {
				return Spec{}, fmt.Errorf("strategy %s: parameter %q is not KEY=VALUE", name, kv)
			}
			p := findParam(info.Params, k)
			if p == nil {
				return Spec{}, fmt.Errorf("strategy %s: unknown parameter %q (valid: %s)", name, k, paramNames(info.Params))
			}
			if _, dup := set[k]; dup {
				return Spec{}, fmt.Errorf("strategy %s: parameter %s given twice", name, k)
			}
			if err := s.heuristic.set(k, v); err != nil {
				return Spec{}, fmt.Errorf("strategy %s: parameter %s: %w (valid: %s)", name, k, err, p.Values)
			}
			set[k] = v
		}
	}
	var canon []string
	def := DefaultHeuristic()
	for _, p := range info.Params {
		if v := s.heuristic.get(p.Name); v != def.get(p.Name) {
			canon = append(canon, p.Name+"="+v)
		}
	}
	s.params = strings.Join(canon, ",")
	return s, nil
}

func findParam(ps []Param, name string) *Param {
	for i := range ps {
		if ps[i].Name == name {
			return &ps[i]
		}
	}
	return nil
}

func paramNames(ps []Param) string {
	if len(ps) == 0 {
		return "none: this strategy takes no parameters"
	}
	n := make([]string, len(ps))
	for i, p := range ps {
		n[i] = p.Name
	}
	return strings.Join(n, ", ")
}

func (h *Heuristic) set(k, v string) error {
	if k == "challenge" {
		switch v {
		case "never":
			h.Challenge = ChallengeNever
		case "always":
			h.Challenge = ChallengeAlways
		case "seen":
			h.Challenge = ChallengeSeen
		default:
			p, err := probability(v)
			if err != nil {
				return err
			}
			h.Challenge, h.ChallengeP = ChallengeRandom, p
		}
		return nil
	}
	if k == "speed" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || !(f > 0) || f > 1e9 {
			return fmt.Errorf("%q is not a number > 0", v)
		}
		h.Speed = f
		return nil
	}
	p, err := probability(v)
	if err != nil {
		return err
	}
	switch k {
	case "bluff":
		h.Bluff = p
	case "threshold":
		h.Threshold = p
	case "forget":
		h.Forget = p
	case "catch":
		h.Catch = p
	case "jump":
		h.Jump = p
	}
	return nil
}

func (h *Heuristic) get(k string) string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	switch k {
	case "bluff":
		return f(h.Bluff)
	case "challenge":
		switch h.Challenge {
		case ChallengeNever:
			return "never"
		case ChallengeAlways:
			return "always"
		case ChallengeSeen:
			return "seen"
		}
		return f(h.ChallengeP)
	case "threshold":
		return f(h.Threshold)
	case "forget":
		return f(h.Forget)
	case "catch":
		return f(h.Catch)
	case "jump":
		return f(h.Jump)
	case "speed":
		return f(h.Speed)
	}
	return ""
}

func probability(v string) (float64, error) {
	p, err := strconv.ParseFloat(v, 64)
	if err != nil || !(p >= 0 && p <= 1) {
		return 0, fmt.Errorf("%q is not a probability between 0 and 1", v)
	}
	return p, nil
}
