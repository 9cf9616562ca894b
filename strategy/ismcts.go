package strategy

import (
	"math"
	"math/bits"
	"sync"

	"github.com/unosim/unosim/engine"
)

// ISMCTS is a search player: single-observer information-set Monte Carlo
// tree search (Cowling, Powley and Whitehouse, "Information Set Monte Carlo
// Tree Search", IEEE TCIAIG 4(2), 2012, algorithm 3). Every iteration of a
// decision
//
//  1. determinizes: copies the position and deals the cards its seat cannot
//     see anew (engine.View.Determinize, with the Knowledge kept from its
//     observation feed), and reseeds every random stream it cannot know;
//  2. descends the tree from the root: at a searched decision it selects by
//     UCB1 among the children whose moves are legal in this
//     determinization, counting each such child's availability (the
//     number of iterations in which it could have been chosen) in place of
//     its parent's visits;
//  3. expands one untried legal move (chosen uniformly at random), and
//  4. plays the game out to its end with the rollout strategy at every
//     seat, then backs the result up the path: each node adds the reward
//     of the seat that made its move.
//
// It answers with the root move visited most (ties: the higher total
// reward, then the first in the engine's order), except that with deviate
// above 0 (2 by default) it answers with its prior strategy's choice
// (counter by default) unless that move's mean reward is lower than the
// most visited move's by more than deviate standard errors of the
// difference (significant): with four players a thousand playouts tell
// most moves apart by less than their noise, and the search then played
// no better than its rollouts (25.1% against three heuristics, 20,000
// games), while with the prior it keeps a good player's choice where it
// cannot tell. Tree nodes are keyed by
// (acting seat, decision, move).
//
// Whose decisions are searched. By default (opponents=rollout) the tree
// holds the searching seat's own decisions only; the other seats' decisions
// inside the descent are made by the rollout strategy, which then serves as
// the model of the opponents. With opponents=tree every seat's decisions
// are nodes, each chosen by UCB from the acting seat's own reward (the
// "paranoid" maximum for itself, as in the paper's multi-player form).
//
// Which decisions are searched. Every kind but one: the turn (which card,
// or draw), the drawn card (play or keep), the color, the answer to a
// Draw Two, Wild Draw Four or Skip (accept, challenge, stack, deflect),
// jump-ins, targets of a swap or a silence, links, points, pile-ups and
// catching a missed UNO call. Calling UNO (call-uno) is delegated to the
// rollout strategy, at the root as in the tree: calling costs nothing and
// passing only risks a penalty, so a search would spend its budget to
// confirm the obvious answer on a decision met about once a round. A
// decision with one legal move is never asked (the engine takes it).
//
// Reward: 1 for a win (1/k for a win shared by k), 0 otherwise; with
// objective=places and the play-for-places option, (n-1-i)/(n-1) for the
// i-th place (from 0), seats without a place sharing the mean of the places
// left. Without play-for-places, places is the same as win.
//
// A rollout strategy that observes (a card counter) begins afresh, from
// what its seat sees in the determinized position at the root of the
// search, at every iteration, and again where the playout starts; it sees
// none of the events of the tree descent.
//
// Reproducibility: the search's own random stream is seeded with one draw
// of the seat's stream (v.Rand()) per searched decision, and everything
// else (determinizations, expansions, playouts) draws from streams derived
// from it, so a game is a function of its seed. UCB compares floats: every
// product is rounded explicitly (float64(...)) so that no platform fuses it
// into a multiply-add, and the logarithm is computed by lnInt, in plain
// rounded arithmetic, rather than math.Log (assembly on amd64, Go on
// arm64), so a decision is the same on every architecture.
//
// Memory: the node pool (one node per iteration and the root) and the
// table of logarithms are allocated at construction, the playout table and
// its rollout strategies at the first decision (again only if the options
// or the number of seats change); a decision allocates nothing.
type ISMCTS struct {
	iterations  int
	exploration float64
	rollout     Spec
	places      bool    // maximize the expected place (objective=places)
	treeOpp     bool    // opponents=tree
	deviate     float64 // standard errors a root move must gain over the rollout's choice

	self     engine.Strategy // the rollout strategy for this seat's delegated decisions in the real game
	selfObs  engine.Observer
	prior    engine.Strategy // the strategy whose choice the search must beat (deviate), fed as self is
	priorObs engine.Observer
	know     engine.Knowledge
	rng      engine.Rand

	// The playout table, built for the options and seats of the game.
	game   *engine.Game
	opts   engine.Options
	n      int
	policy [engine.MaxPlayers]engine.Strategy // one rollout instance per seat of the playout table
	obs    [engine.MaxPlayers]engine.Observer
	views  [engine.MaxPlayers]engine.View // views of game.State

	nodes  []node    // the tree; nodes[0] is the root
	lnTab  []float64 // lnTab[i] = ln(i)
	moves  [256]engine.Move
	mark   [256]bool
	reward [engine.MaxPlayers]float64

	searches int // searched decisions, for the benchmark

	// check, when set (tests), sees every determinization before it is searched.
	check func(v *engine.View, det *engine.State)
}

// node is a tree node: the move that leads to it from its parent, by whom
// at which decision, and its statistics for that seat.
type node struct {
	move   engine.Move
	seat   uint8
	dec    engine.Decision
	parent int32
	child  int32 // first child, or -1
	next   int32 // next sibling, or -1
	visits int32
	avail  int32   // iterations in which the move was legal at the parent
	total  float64 // sum of the acting seat's rewards
}

// ISMCTS parameter bounds.
const (
	ismctsMaxIterations  = 1000000
	ismctsMaxExploration = 100
)

// NewISMCTS makes a search player that spends iterations per searched
// decision (at least 1), explores with constant c (UCB1's c in
// mean + c*sqrt(ln(avail)/visits)), plays out with rollout, maximizes the
// expected place when places is set, and keeps the opponents' decisions in
// the tree when treeOpponents is set.
func NewISMCTS(iterations int, c float64, rollout Spec, places, treeOpponents bool) *ISMCTS {
	iterations = max(1, min(iterations, ismctsMaxIterations))
	s := &ISMCTS{iterations: iterations, exploration: c, rollout: rollout, places: places, treeOpp: treeOpponents}
	s.self = rollout.New()
	s.selfObs, _ = s.self.(engine.Observer)
	s.nodes = make([]node, 1, iterations+1)
	s.lnTab = make([]float64, iterations+2)
	for i := 1; i < len(s.lnTab); i++ {
		s.lnTab[i] = lnInt(uint64(i))
	}
	s.rng.Seed(0, 0, engine.PurposeSeat)
	return s
}

// Begin implements engine.Observer: the search keeps what its seat sees of
// other hands, for its determinizations.
func (s *ISMCTS) Begin(v *engine.View) {
	s.know.Reset(v.Seat())
	if s.selfObs != nil {
		s.selfObs.Begin(v)
	}
	if s.priorObs != nil {
		s.priorObs.Begin(v)
	}
}

// Observe implements engine.Observer.
func (s *ISMCTS) Observe(v *engine.View, e engine.Event) {
	s.know.Observe(v, e)
	if s.selfObs != nil {
		s.selfObs.Observe(v, e)
	}
	if s.priorObs != nil {
		s.priorObs.Observe(v, e)
	}
}

// searched reports whether decisions of kind d are searched.
func searched(d engine.Decision) bool { return d != engine.DecideCallUNO }

// Decide implements engine.Strategy.
func (s *ISMCTS) Decide(v *engine.View, moves []engine.Move) int {
	if len(moves) < 2 || !searched(v.Decision()) || !s.table(v) {
		return s.self.Decide(v, moves)
	}
	if s.know.Seat() != v.Seat() {
		s.know.Reset(v.Seat()) // never begun (driven without a Game): nothing known
	}
	prior := -1
	if s.prior != nil {
		prior = s.prior.Decide(v, moves)
	}
	s.rng.Seed(v.Rand().Uint64(), 0, engine.PurposeSeat)
	s.search(v)
	best, bestN, bestT := 0, int32(-1), math.Inf(-1)
	var bestNode, priorNode *node
	root := &s.nodes[0]
	for i, m := range moves {
		for c := root.child; c >= 0; c = s.nodes[c].next {
			ch := &s.nodes[c]
			if ch.move == m {
				if ch.visits > bestN || (ch.visits == bestN && ch.total > bestT) {
					best, bestN, bestT, bestNode = i, ch.visits, ch.total, ch
				}
				if i == prior {
					priorNode = ch
				}
				break
			}
		}
	}
	if prior >= 0 && best != prior && (priorNode == nil || !s.significant(bestNode, priorNode)) {
		return prior
	}
	return best
}

// significant reports whether node a's mean reward exceeds b's by more than
// deviate standard errors of the difference (each mean's variance taken as
// that of a Bernoulli reward, m(1-m)/visits, with m(1-m) at least 0.01 so
// that a few equal rewards do not look certain). The search's most visited move
// replaces the rollout strategy's own choice only then: with four players
// a thousand playouts tell most moves apart by less than their noise.
func (s *ISMCTS) significant(a, b *node) bool {
	ma, mb := a.total/float64(a.visits), b.total/float64(b.visits)
	v := bernoulliVar(ma, a.visits) + bernoulliVar(mb, b.visits)
	d := ma - mb
	return d > 0 && float64(d*d) > float64(float64(s.deviate*s.deviate)*v)
}

func bernoulliVar(m float64, n int32) float64 {
	return max(float64(m*(1-m)), 0.01) / float64(n)
}

// table makes the playout table ready for v's game; it reports false if it
// cannot (options a table refuses), and the seat then plays its rollout.
func (s *ISMCTS) table(v *engine.View) bool {
	n := v.Players()
	if s.game != nil && n == s.n && s.opts == v.Options() {
		return true
	}
	s.opts, s.n = v.Options(), n
	for p := range n {
		if s.policy[p] == nil {
			s.policy[p] = s.rollout.New()
			s.obs[p], _ = s.policy[p].(engine.Observer)
		}
	}
	g, err := engine.NewGame(s.opts, s.policy[:n])
	if err != nil {
		s.game = nil
		return false
	}
	s.game = g
	for p := range n {
		s.views[p] = g.State.View(p)
	}
	return true
}

// search runs the iterations from v's position, leaving the statistics in
// the tree below nodes[0].
func (s *ISMCTS) search(v *engine.View) {
	seat := v.Seat()
	st := &s.game.State
	s.searches++
	s.nodes = s.nodes[:1]
	s.nodes[0] = node{parent: -1, child: -1, next: -1}
	for range s.iterations {
		v.Determinize(st, &s.rng, &s.know)
		// Determinize keeps the seat's own stream; the playouts must not
		// all start from the same one.
		s.views[seat].Rand().Seed(s.rng.Uint64(), 0, engine.PurposeSeat)
		if s.check != nil {
			s.check(v, st)
		}
		for p, o := range s.obs[:s.n] {
			if o != nil {
				o.Begin(&s.views[p])
			}
		}
		cur := int32(0)
		for !st.Over() {
			p, d := st.Pending()
			moves := st.Moves(s.moves[:0])
			if !searched(d) || (p != seat && !s.treeOpp) {
				i := s.policy[p].Decide(&s.views[p], moves)
				if uint(i) >= uint(len(moves)) {
					i = 0
				}
				st.Apply(moves[i]) //nolint:errcheck // a move of Moves is legal
				continue
			}
			next, expanded := s.selectChild(cur, p, d, moves)
			if next < 0 {
				break // the pool is full: play out from here
			}
			st.Apply(s.nodes[next].move) //nolint:errcheck // a move of Moves is legal
			cur = next
			if expanded {
				break
			}
		}
		s.score(s.game.PlayOut())
		for c := cur; c > 0; c = s.nodes[c].parent {
			nd := &s.nodes[c]
			nd.visits++
			nd.total += s.reward[nd.seat]
		}
		s.nodes[0].visits++
	}
}

// selectChild chooses the child of cur to descend to, among the moves legal
// in this determinization for seat p's decision d: a new child for an
// untried move if there is one (expanded), else the one of highest UCB. It
// returns -1 if there is nothing to choose (the pool is full).
func (s *ISMCTS) selectChild(cur int32, p int, d engine.Decision, moves []engine.Move) (int32, bool) {
	nm := len(moves)
	clear(s.mark[:nm])
	untried := nm
	best, bestU := int32(-1), math.Inf(-1)
	for c := s.nodes[cur].child; c >= 0; c = s.nodes[c].next {
		ch := &s.nodes[c]
		if int(ch.seat) != p || ch.dec != d {
			continue
		}
		i := 0
		for i < nm && moves[i] != ch.move {
			i++
		}
		if i == nm {
			continue // not legal in this determinization
		}
		s.mark[i] = true
		untried--
		ch.avail++
		if u := s.ucb(ch); u > bestU {
			best, bestU = c, u
		}
	}
	if untried == 0 || len(s.nodes) == cap(s.nodes) {
		return best, false
	}
	k := s.rng.IntN(untried)
	i := 0
	for ; ; i++ {
		if !s.mark[i] {
			if k == 0 {
				break
			}
			k--
		}
	}
	id := int32(len(s.nodes))
	parent := &s.nodes[cur]
	s.nodes = append(s.nodes, node{move: moves[i], seat: uint8(p), dec: d, parent: cur, child: -1, next: parent.child, avail: 1})
	parent.child = id
	return id, true
}

// ucb is UCB1 with availability: mean + c*sqrt(ln(avail)/visits). Every
// child in the tree has been visited once at least.
func (s *ISMCTS) ucb(ch *node) float64 {
	vis := float64(ch.visits)
	mean := ch.total / vis
	return mean + float64(s.exploration*math.Sqrt(s.lnTab[ch.avail]/vis))
}

// score sets every seat's reward for a finished playout.
func (s *ISMCTS) score(res *engine.Result) {
	n := s.n
	if s.places && s.opts.PlayForPlaces {
		var placed [engine.MaxPlayers]bool
		k := 0
		for ; k < n && res.Places[k] >= 0; k++ {
			p := res.Places[k]
			placed[p] = true
			s.reward[p] = float64(n-1-k) / float64(n-1)
		}
		// The places left, k to n-1, are worth (n-1-k)/(n-1) down to 0.
		rest := float64(n-1-k) / float64(2*(n-1))
		for p := range n {
			if !placed[p] {
				s.reward[p] = rest
			}
		}
		return
	}
	w := bits.OnesCount32(res.Winners)
	share := 0.0
	if w > 0 {
		share = 1 / float64(w)
	}
	for p := range n {
		s.reward[p] = 0
		if res.Won(p) {
			s.reward[p] = share
		}
	}
}

// lnInt is the natural logarithm of n >= 1 in plain IEEE arithmetic, every
// product rounded explicitly, so that it is the same on every platform
// (math.Log is assembly on some and may be fused on others). With n =
// m * 2^e, m in [sqrt(2)/2, sqrt(2)), ln n = e ln 2 + 2 atanh(s) where
// s = (m-1)/(m+1), |s| < 0.172, and atanh(s) = s + s^3/3 + s^5/5 + ...;
// fourteen terms leave an error below 0.172^29/29 < 1e-23.
func lnInt(n uint64) float64 {
	if n <= 1 {
		return 0
	}
	e := bits.Len64(n) - 1
	m := float64(n) / float64(uint64(1)<<e) // exact: a power-of-two scaling
	if m > math.Sqrt2 {
		m /= 2
		e++
	}
	s := (m - 1) / (m + 1)
	z := float64(s * s)
	sum := 0.0
	for k := 27; k >= 1; k -= 2 {
		sum = 1/float64(k) + float64(z*sum)
	}
	return float64(float64(e)*math.Ln2) + float64(2*float64(s*sum))
}

// ismctsInfo is the registry's entry for ismcts; its rollout choices are
// the strategies registered before it.
func ismctsInfo() Info {
	var rollouts []string
	for _, in := range Registered() {
		if in.Name != "ismcts" {
			rollouts = append(rollouts, in.Name)
		}
	}
	def, defPrior := "random", "random"
	for _, r := range rollouts {
		if r == "heuristic" {
			def = r
		}
		if r == "counter" || (r == "heuristic" && defPrior != "counter") {
			defPrior = r
		}
	}
	return Info{
		Name:        "ismcts",
		Description: "a search player: information-set Monte Carlo tree search over determinizations of what its seat cannot see, with playouts by a rollout strategy; searches every decision but calling UNO, which its rollout strategy makes",
		Params: []Param{
			{Name: "iterations", Type: Number, Default: "1000", Min: 1, Max: ismctsMaxIterations,
				Doc: "playouts per searched decision (the budget; a count, so games are reproducible; a fraction is rounded down)"},
			{Name: "exploration", Type: Number, Default: "0.7", Min: 0, Max: ismctsMaxExploration,
				Doc: "UCB1's exploration constant c in mean + c*sqrt(ln(availability)/visits), rewards in [0, 1]"},
			{Name: "rollout", Type: Choice, Default: def, Choices: rollouts,
				Doc: "the strategy that plays the playouts, and the opponents in the tree descent with opponents=rollout"},
			{Name: "objective", Type: Choice, Default: "win", Choices: []string{"win", "places"},
				Doc: "what it maximizes: the chance to win, or (with the play-for-places option) the expected place"},
			{Name: "opponents", Type: Choice, Default: "rollout", Choices: []string{"rollout", "tree"},
				Doc: "who makes the other seats' decisions in the tree descent: the rollout strategy, or the tree (UCB from their own reward)"},
			{Name: "deviate", Type: Number, Default: "2", Min: 0, Max: 10,
				Doc: "how many standard errors the search's most visited root move must gain over the prior strategy's choice to be played instead (0: always the most visited)"},
			{Name: "prior", Type: Choice, Default: defPrior, Choices: rollouts,
				Doc: "with deviate above 0, the strategy whose choice the search plays unless a move beats it by deviate standard errors"},
		},
		New: newISMCTS,
	}
}

func newISMCTS(a Args) engine.Strategy {
	s := NewISMCTS(int(a.Float("iterations")), a.Float("exploration"), MustParse(a.String("rollout")),
		a.String("objective") == "places", a.String("opponents") == "tree")
	if d := a.Float("deviate"); d > 0 {
		s.SetPrior(MustParse(a.String("prior")), d)
	}
	return s
}

// SetPrior makes the search answer with strategy prior's choice at a
// searched decision unless its most visited move gains deviate standard
// errors over that choice (see significant).
func (s *ISMCTS) SetPrior(prior Spec, deviate float64) {
	s.prior, s.deviate = prior.New(), deviate
	s.priorObs, _ = s.prior.(engine.Observer)
}

var ismctsOnce sync.Once

// registerISMCTS registers ismcts, once, after the strategies it may use
// as its rollout (call it after registering counter).
func registerISMCTS() {
	ismctsOnce.Do(func() { MustRegister(ismctsInfo()) })
}
