package experiments

// MainEstimate is cell i's main estimate (the file's main:) with its 95%
// interval, as the report and --ci-width use it.
func (r *Result) MainEstimate(i int) (est, lo, hi float64) {
	return estimate(r.Experiment.Main, &r.Cells[i].Stats)
}
