// Package sim runs many games of one configuration on a pool of workers and
// turns them into summaries and files.
//
// Game i depends only on (seed, i). Each worker owns its engine tables
// (one per seat rotation) and sums integer counts and exact histograms;
// workers' stats are merged at the end, so the result is bit for bit the
// same for any worker count, and shards of a run (Shard i/n) merge into
// exactly the single run. Output files are written atomically, and a run
// stopped by its context is reported with Complete false, never as
// complete.
package sim
