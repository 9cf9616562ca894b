// Package strategy holds the built-in strategies, random and heuristic, and
// the one syntax that names them with their parameters:
// NAME[:KEY=VALUE,...], for example "heuristic:bluff=0.3,challenge=seen".
// Parse validates a specification once and lists the valid choices when it
// is wrong; Spec.New makes a fresh instance for each worker. Strategies draw
// every random number from the view's seat stream and keep no state between
// decisions, so they allocate nothing per game.
package strategy
