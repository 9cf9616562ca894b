// Package analysis turns the counts and histograms that the simulator
// aggregates into estimates, confidence intervals and hypothesis tests.
//
// # Contract
//
//   - Everything here is a pure function of its arguments or a small value
//     type with methods; there is no package-level mutable state, so any
//     function may be called from any number of goroutines. A value of type
//     [Paired] or [IntHist] is not safe for concurrent mutation: give each
//     worker its own and [Paired.Merge] / [IntHist.Merge] them afterwards.
//   - Results are deterministic: the same inputs give bit-identical outputs on
//     every run. Aggregates are built from integer counts (or from sums that
//     are exact for integer data, see [Paired]), so they do not depend on the
//     order in which observations were added or partial results merged.
//   - Nothing panics on bad input (only a nil receiver for the methods that
//     mutate it, [IntHist.Add], [IntHist.Reserve], [IntHist.Merge] and
//     [Paired.Add], would). Each function documents what it returns
//     instead: NaN for a quantity that is undefined (no observations, a
//     count larger than its total, a confidence level outside (0, 1)), and a
//     documented finite value where a limit is the natural answer (for
//     example P = 1 when there is no discordant pair in [McNemar]). A
//     confidence level outside the open interval (0, 1) only makes the
//     interval NaN; the point estimate and the test are still reported.
//   - Confidence levels are fractions (0.95, not 95). Every test is two-sided.
//   - [IntHist.Add] and [Paired.Add] do not allocate once the histogram has
//     the capacity it needs ([IntHist.Reserve]); every other function may
//     allocate and is meant for reporting, not for the inner loop.
//
// # Plots
//
// [HistogramPlot], [OverlaidHistograms], [BandPlot], [ErrorBarPlot],
// [DotPlot], [LinePlot], [HeatMap] / [HeatMapWith] and [LengthPanels] (small
// multiples with shared axes) draw aggregates (never raw observations) on
// gonum/plot, with round tick values (integers for integer quantities) and
// a margin around the figure; [SavePlot] writes PNG and SVG and
// [SaveFigure] any of PNG, SVG and PDF at a chosen resolution, atomically.
// [CheckLayout] measures every string a figure draws with the font's own
// metrics and reports overlaps and clipping. Output is deterministic: the
// same input gives the same PNG and SVG bytes (fonts are the Liberation
// fonts built into the module). Bad input is an error, never a panic.
//
// # Formulas and where they come from
//
// Normal and Student t quantiles and tail probabilities come from
// gonum.org/v1/gonum/stat/distuv, except for Student t with many degrees of
// freedom, where gonum loses precision and asymptotic expansions take over
// (Abramowitz & Stegun 26.7.5 and 26.7.8; see dist.go for the measured
// errors). The binomial tail of [McNemar]'s mid-p value at π = 1/2 is a sum
// of exact integer binomial coefficients, tested against gonum.
//
//   - [Wilson]: the Wilson score interval for one proportion (Wilson 1927;
//     recommended by Agresti & Coull 1998 and Newcombe 1998). Checked
//     against statsmodels proportion_confint(method='wilson') and R
//     prop.test(correct=FALSE).
//   - [McNemar]: McNemar's test for paired binary outcomes (McNemar 1947)
//     with an interval for the difference of paired proportions that is
//     dual to it (it excludes 0 exactly when p < 1 − confidence): below 25
//     discordant pairs the mid-p conditional test (Fagerland, Lydersen &
//     Laake 2013) and the interval that inverts it; from 25 on the
//     asymptotic score test (uncorrected McNemar z) and Tango's (1998) score
//     interval. Coverage is checked by exact enumeration.
//   - [Paired.Test] and [IntHist.MeanCI]: the one-sample Student t test and
//     interval (as R t.test), checked against R's sleep data set.
//   - [Holm]: Holm's (1979) step-down adjusted p-values, as R p.adjust(,
//     "holm"); [HolmMirrored] counts once a hypothesis tested twice as
//     mirror images (one rate 1 minus the other).
//   - [IntHist.Quantile]: the inverse of the empirical distribution function
//     (Hyndman & Fan 1996, definition 1), the same as gonum stat.Quantile
//     with stat.Empirical and R quantile(type=1).
//
// References:
//
//   - Abramowitz, M. & Stegun, I. A. (1964). Handbook of Mathematical
//     Functions, §26.7 (Student t approximations 26.7.5 and 26.7.8).
//   - Agresti, A. (2002). Categorical Data Analysis, 2nd ed. Wiley. §10.1.
//   - Agresti, A. & Coull, B. A. (1998). Approximate is better than "exact"
//     for interval estimation of binomial proportions. The American
//     Statistician 52(2), 119–126.
//   - Berry, G. & Armitage, P. (1995). Mid-P confidence intervals: a brief
//     review. The Statistician 44(4), 417–423.
//   - Fagerland, M. W., Lydersen, S. & Laake, P. (2013). The McNemar test for
//     binary matched-pairs data: mid-p and asymptotic are better than exact
//     conditional. BMC Medical Research Methodology 13, 91.
//   - Fisher, R. A. & Cornish, E. A. (1960). The percentile points of
//     distributions having known cumulants. Technometrics 2(2), 209–225.
//   - Holm, S. (1979). A simple sequentially rejective multiple test
//     procedure. Scandinavian Journal of Statistics 6(2), 65–70.
//   - Hyndman, R. J. & Fan, Y. (1996). Sample quantiles in statistical
//     packages. The American Statistician 50(4), 361–365.
//   - McNemar, Q. (1947). Note on the sampling error of the difference
//     between correlated proportions or percentages. Psychometrika 12,
//     153–157.
//   - Newcombe, R. G. (1998). Two-sided confidence intervals for the single
//     proportion: comparison of seven methods. Statistics in Medicine 17,
//     857–872.
//   - Tango, T. (1998). Equivalence test and confidence interval for the
//     difference in proportions for the paired-sample design. Statistics
//     in Medicine 17, 891–908.
//   - Wilson, E. B. (1927). Probable inference, the law of succession, and
//     statistical inference. Journal of the American Statistical
//     Association 22, 209–212.
package analysis
