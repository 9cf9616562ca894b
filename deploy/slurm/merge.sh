#!/bin/bash
# Merge the shards of a run once the array is done:
#
#   jid=$(SHARDS=16 OUT=$PWD/results/run7 sbatch --parsable --array=0-15 \
#       deploy/slurm/array.sh simulate --games 100000000 --seed 7)
#   OUT=$PWD/results/run7 sbatch --dependency=afterany:$jid deploy/slurm/merge.sh
#
# afterany runs the merge whatever the tasks' exit codes, so that a failed
# or cancelled shard is reported (which one, what to rerun) instead of the
# merge waiting forever; with afterok the merge runs only if every task
# succeeded. The state of the shards is printed first (unosim shards). If
# a shard is missing or incomplete, the merge exits 2 and names it: rerun
# that task (sbatch --array=N deploy/slurm/array.sh ..., with the same
# SHARDS and OUT: it resumes) and this script. Rerunning it after a
# success rewrites the same result.
#
#SBATCH --job-name=unosim-merge
#SBATCH --cpus-per-task=1
#SBATCH --output=unosim-merge-%j.log
set -euo pipefail

if [ -z "${OUT:-}" ]; then
    echo "merge.sh: set OUT, the directory of the run (holding shard-0, shard-1, ...)" >&2
    exit 2
fi
UNOSIM=${UNOSIM:-unosim}
shopt -s nullglob
shards=("$OUT"/shard-*)
if [ ${#shards[@]} -eq 0 ]; then
    echo "merge: no shard directories in $OUT" >&2
    exit 2
fi
"$UNOSIM" shards "${shards[@]}"
exec "$UNOSIM" merge "${shards[@]}" --out "$OUT/all"
