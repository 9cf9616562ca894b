#!/bin/bash
# Run the Slurm recipe (array.sh, merge.sh) on a single-node Slurm and
# check it: 4 shards, one of them requeued while it runs, merged, and the
# merged stats compared byte for byte with a single run. Not part of CI.
#
#   deploy/slurm/test-local.sh            # needs a running Slurm
#   sudo deploy/slurm/test-local.sh --setup   # Debian: configure and start
#                                             # a one-node Slurm first
#
# Installing a single-node Slurm on Debian 12 (Slurm 22.05):
#   sudo apt-get install slurm-wlm        # slurmctld, slurmd, munge
#   sudo deploy/slurm/test-local.sh --setup
# --setup writes /etc/slurm/slurm.conf for this host (only if there is
# none), and starts munged, slurmctld and slurmd.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

setup() {
    if ! command -v slurmctld >/dev/null; then
        echo "slurmctld not found: sudo apt-get install slurm-wlm" >&2
        exit 1
    fi
    local host cpus mem
    host=$(hostname -s)
    cpus=$(nproc)
    mem=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 512))
    mkdir -p /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge
    chown slurm: /var/spool/slurmctld /var/log/slurm 2>/dev/null || true
    chown munge: /run/munge 2>/dev/null || true
    if [ ! -e /etc/slurm/slurm.conf ]; then
        cat >/etc/slurm/slurm.conf <<CONF
ClusterName=local
SlurmctldHost=$host
AuthType=auth/munge
SlurmUser=slurm
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
# linuxproc and affinity work without systemd or cgroups (containers, VMs).
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
KillWait=30
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
        echo "wrote /etc/slurm/slurm.conf" >&2
    fi
    pgrep -x munged >/dev/null || su -s /bin/sh munge -c /usr/sbin/munged
    pgrep -x slurmctld >/dev/null || slurmctld
    pgrep -x slurmd >/dev/null || slurmd
    for _ in $(seq 30); do
        scontrol ping >/dev/null 2>&1 && sinfo -h -o %T | grep -qv -e down -e unk && break
        sleep 1
    done
    sinfo
}

if [ "${1:-}" = "--setup" ]; then
    setup
fi
if ! command -v sbatch >/dev/null; then
    echo "Slurm is not installed. On Debian: sudo apt-get install slurm-wlm; then sudo $0 --setup" >&2
    exit 0
fi
if ! scontrol ping >/dev/null 2>&1; then
    echo "Slurm is installed but slurmctld does not answer: sudo $0 --setup (Debian), or start your cluster's daemons" >&2
    exit 1
fi

work=${WORK:-$repo/slurm-test}
rm -rf "$work"
mkdir -p "$work/bin"
(cd "$repo" && CGO_ENABLED=0 go build -o "$work/bin/unosim" ./cmd/unosim)
export PATH=$work/bin:$PATH UNOSIM=$work/bin/unosim
cd "$work"
cpus=1 # one CPU per shard, so that a small node runs several at once
games=${GAMES:-4000000}
args=(simulate --games "$games" --seed 7 --players 3 --strategy heuristic --quiet)

echo "== submitting 4 shards of $games games and the merge" >&2
jid=$(SHARDS=4 OUT=$work/run CHECKPOINT_EVERY=1s sbatch --parsable --array=0-3 --cpus-per-task=$cpus \
    "$repo/deploy/slurm/array.sh" "${args[@]}")
mid=$(OUT=$work/run sbatch --parsable --dependency=afterany:"$jid" "$repo/deploy/slurm/merge.sh")
echo "array job $jid, merge job $mid" >&2

# Requeue shard 1 once it has written a checkpoint: it must resume.
for _ in $(seq 120); do
    [ -e "$work/run/shard-1/stats.json" ] && break
    sleep 0.5
done
if squeue -h -j "${jid}_1" -t RUNNING | grep -q .; then
    echo "== requeueing shard 1 while it runs" >&2
    scontrol requeue "${jid}_1"
fi

while squeue -h -j "$jid,$mid" | grep -q .; do sleep 1; done
sacct -X -j "$jid,$mid" -o JobID,JobName,State,ExitCode,Restarts 2>/dev/null || true
echo "== merge log" >&2
cat "unosim-merge-$mid.log"
echo "== shard 1's log (two sessions when the requeue happened)" >&2
grep -h -e 'unosim shard' -e resuming "unosim-${jid}_1.log" || true

echo "== single run, to compare" >&2
"$UNOSIM" "${args[@]}" --out "$work/single" >/dev/null
stats() { sed -n '/^ "stats": {/,$p' "$1/stats.json"; }
if cmp -s <(stats "$work/run/all") <(stats "$work/single"); then
    echo "OK: the merged stats equal the single run's, byte for byte"
else
    echo "FAIL: the merged stats differ from the single run's" >&2
    exit 1
fi
