// Package strategy holds the registry of strategies (Register, Lookup,
// Registered) that every command uses, the built-in strategies (random,
// heuristic, the card counter counter, and ismcts, a search player), bots
// in other languages (exec:COMMAND, exec.go and docs/PROTOCOL.md), the sound Wild Draw Four rules they share
// (challenge.go: the posterior of a bluff by Bayes' rule and the expected
// cost in cards of each answer), and the one syntax that names them with
// their parameters: NAME[:KEY=VALUE,...], for example
// "heuristic:bluff=0.3,challenge=seen". Parse validates a specification
// once and lists the valid choices when it is wrong; Spec.New makes a fresh
// instance for each worker and seat. Strategies draw every random number
// from the view's seat stream; random and heuristic keep no state between
// decisions, counter keeps what its seat has seen (engine.Observer) in
// fixed arrays, ismcts a node pool allocated once, and none allocates per
// game.
package strategy
