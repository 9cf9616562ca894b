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
//
// Long runs survive being stopped: SimulateWith hands a checkpoint (the
// stats of a prefix [lo, x) of the shard's games) to its caller at
// intervals and when stopped, and resumes from one, so that the resumed
// run sums to the same integers as an uninterrupted one. Every record
// names its Producer (version, build, Go); ReadStats checks a record's
// counts for consistency (Stats.Check); ReadSurvey checks the shards of a
// run together and lists every problem at once.
//
// Per-game records (Records, Options.Records): workers fill a batch of
// rows per chunk and one writer goroutine writes the batches in game-index
// order, as Parquet, CSV or JSON lines, with bounded memory. The rows go
// into segment files cut at every checkpoint before stats.json records
// it; a resumed run drops the segments past its checkpoint, so every game
// is written once, and the file itself appears (joined, renamed) only when
// the run is complete. Stats also keep the extremes (the longest game, the
// most cards drawn; lowest index on ties), which merge like the counts.
//
// Two environment variables exist for tests only: UNOSIM_FAKE_BUILD
// (FakeBuildEnv) replaces the build this executable records, and
// UNOSIM_FAIL_WRITE (FaultEnv) makes chosen writes fail as on a full disk.
package sim
