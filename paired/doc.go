// Package paired is the one paired runner of unosim: it plays several
// configurations on the same deals and hands every deal's results, all
// configurations together, to a collector. match, tune and tournament
// (through tune.Runner: strategies in rotating seats, scored per deal) and
// compare and the experiments (through experiments.Run: cells, paired game
// by game) all play their games here; only what they sum differs.
//
// # Contract
//
//   - Entries and configurations: entry k is a list of sim.Configs (one for
//     an experiment's cell; one per seat rotation for a strategy on
//     duplicate deals). Deal i of every configuration is its game index i,
//     keyed by (seed, i) in the engine, so every entry plays the same deals.
//   - Deterministic: workers take chunks of consecutive deals and give each
//     deal to their own [Sink]; a sink only sums integers (or merges in any
//     order), so the sums are the same for any worker count. Deals played
//     are always a prefix [a, x) of the range asked for: every chunk handed
//     out is played to its end, which is what checkpoints rely on.
//   - Allocation: one sim.Table per worker and configuration, built once;
//     nothing per deal.
//   - Failures: a strategy's failure (an external bot) and a panic stop the
//     run with an error; nothing here panics.
package paired
