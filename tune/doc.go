// Package tune finds and checks strategy parameters: the duplicate-deal
// [Runner] (the strategies' front of the one paired runner, package
// paired, which compare and the experiments play through too), the round robin
// [Tournament], the optimisers [CMAES] and [SPSA] driven by a resumable
// [State], Wald's sequential probability ratio test ([SPRT]) and
// [BradleyTerry] ratings on the Elo scale.
//
// # Contract
//
//   - Deterministic: everything random is drawn from a stream keyed by
//     (seed, generation) or (seed, deal index), never from the clock, and
//     workers only sum integers, so a result is bit for bit the same for any
//     number of workers, and a tune resumed from its last finished
//     generation ends exactly where an uninterrupted one does.
//   - Duplicate deals: deal d of seed s is the engine's game (s, d). An
//     evaluation plays each deal once per seat rotation (the focus strategy
//     in every seat in turn) and every candidate plays the same deals, so
//     seat and deal luck cancel in comparisons (common random numbers).
//   - Objectives: a focus seat scores an integer per game, higher better
//     ([Objective]: a win, minus its place with play-for-places, or its
//     final match points, negated under losers-accumulate where lower is
//     better), so every sum over games and deals stays exact. Under Win the
//     scores are the wins and the Runner does what it did before scores.
//   - Optimisers maximise and work in normalised coordinates: parameter i
//     at lo_i + u_i (hi_i - lo_i), u_i in [0, 1]. Neither depends on the
//     score's scale or sign (CMA-ES uses ranks; SPSA calibrates its gain on
//     the gradient's size); only the boundary penalty is in the score's
//     units.
//   - Nothing here panics on bad input; constructors return errors.
//   - Allocation: a Runner builds its tables (one sim.Table per worker,
//     entry and seat rotation, in a paired.Runner) once and allocates
//     nothing per game; each Play call allocates a fixed amount (goroutines,
//     sinks and the result).
//   - Intervals over deals: a deal's games are correlated, so every interval
//     of a mean score or a paired difference is a Student t interval over
//     deals (the independent units), and its test is the same statistic:
//     the interval excludes 0 exactly when p < 0.05. So is a tournament's
//     win rate alone against a table ([Alone]), tested against the fair
//     share. The tournament's cross-table cells are Wilson intervals over
//     decisive games, which treat the games as independent.
//
// # Methods and their sources
//
//   - CMA-ES: Hansen, N. (2016). The CMA Evolution Strategy: A Tutorial.
//     arXiv:1604.00772 (the (mu/mu_w, lambda) algorithm of its appendix A
//     with the default parameters of its table 1). gonum's
//     optimize.CmaEsChol hides its mean, step size and state, so it cannot
//     be resumed or reported; ours is tested against it on sphere and
//     Rosenbrock.
//   - SPSA: Spall, J. C. (1998). Implementation of the simultaneous
//     perturbation algorithm for stochastic optimization. IEEE Trans.
//     Aerospace and Electronic Systems 34(3), 817-823 (gains a/(k+1+A)^0.602,
//     c/(k+1)^0.101, A one tenth of the iterations).
//   - SPRT: Wald, A. (1945). Sequential tests of statistical hypotheses.
//     Annals of Mathematical Statistics 16(2), 117-186; with the normal
//     approximation of the log-likelihood ratio for scores in [0, 1] used by
//     fishtest (the "generalized" SPRT of M. Van den Bergh).
//   - Bradley-Terry: Hunter, D. R. (2004). MM algorithms for generalized
//     Bradley-Terry models. Annals of Statistics 32(1), 384-406 (the MM
//     iteration of its section 2), intervals from the observed information.
package tune
