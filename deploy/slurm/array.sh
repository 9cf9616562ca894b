#!/bin/bash
# One shard of a sharded unosim run per Slurm array task.
#
#   SHARDS=16 OUT=$PWD/results/run7 sbatch --array=0-15 deploy/slurm/array.sh \
#       simulate --games 100000000 --seed 7
#   SHARDS=8 OUT=$PWD/results/hr sbatch --array=0-7 deploy/slurm/array.sh \
#       experiment run house-rules --games 1000000
#
# The arguments are unosim's; this script adds --shard TASK/SHARDS, --out
# OUT/shard-TASK and --workers (the CPUs Slurm gave the task). SHARDS is
# the total number of shards and must stay the same for every submission
# of the run: rerunning one shard (sbatch --array=3 ...) must not change it.
#
# Requeue-safe: a requeued or resubmitted task runs the same command into
# the same directory, and unosim resumes from the last checkpoint (written
# every --checkpoint-every and on SIGTERM), plays only the missing games,
# and exits 0 at once if the shard is already complete. Exit codes: 0 the
# shard is complete; 130 stopped by a signal (checkpoint written; resubmit
# to resume); 2 bad input or OUT/shard-TASK holds another run; 1 a runtime
# failure (I/O).
#
#SBATCH --job-name=unosim
#SBATCH --cpus-per-task=8
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=unosim-%A_%a.log
# SIGTERM to the step 120 s before the time limit: a checkpoint is written.
#SBATCH --signal=TERM@120
set -euo pipefail

die() { echo "array.sh: $*" >&2; exit 2; }
[ -n "${SHARDS:-}" ] || die "set SHARDS, the total number of shards (the size of the array)"
[ -n "${OUT:-}" ] || die "set OUT, the directory of the run, on a filesystem every node sees"
[ -n "${SLURM_ARRAY_TASK_ID:-}" ] || die "submit as an array job: sbatch --array=0-N array.sh ..."
UNOSIM=${UNOSIM:-unosim}
CPUS=${SLURM_CPUS_PER_TASK:-1}
TASK=$SLURM_ARRAY_TASK_ID

mkdir -p "$OUT"
echo "unosim shard $TASK/$SHARDS on $(hostname) with $CPUS CPUs (restart ${SLURM_RESTART_COUNT:-0}): $*" >&2

# srun makes unosim the job step itself, so that Slurm's SIGTERM (time
# limit, preemption, scancel) reaches it; since Slurm 22.05 srun does not
# inherit --cpus-per-task, so it is passed on, and the step is bound to its
# cores, one worker per CPU.
exec srun --ntasks=1 --cpus-per-task="$CPUS" --cpu-bind=cores \
    "$UNOSIM" "$@" \
    --shard "$TASK/$SHARDS" --out "$OUT/shard-$TASK" --workers "$CPUS" \
    --checkpoint-every "${CHECKPOINT_EVERY:-60s}" --progress json
