#!/usr/bin/env bash
# scomm's own instructions per local creation, per message and per small blocking collective,
# counted by callgrind (exact and repeatable, unlike timings on a shared machine): the figures
# docs/DESIGN.md quotes.
#   scripts/instructions.sh [BUILD_DIR]   # default: build (a Release build)
set -euo pipefail
source "$(dirname "$0")/common.sh"
build="$root/${1:-build}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
profile() {  # experiment and its options: two ranks, each under callgrind
  local experiment="$1"
  shift
  mpirun --oversubscribe -np 2 valgrind --tool=callgrind --callgrind-out-file="$work/$experiment.%p" \
    "$build/bench/scomm-mpibench" "$experiment" --reps 1 "$@" >"$work/$experiment.txt" 2>&1
}
# 200,000 creations in a row: the world's runs of fresh blocks at their longest, as in the table.
profile split-halves
# The world's case alone: beside a waiting any-tag receive, messages take the matching engine.
profile p2p-overhead --quick --only world
python3 "$root/scripts/instruction_counts.py" creation "$(ls "$work"/split-halves.[0-9]* | head -1)"
python3 "$root/scripts/instruction_counts.py" messages "$work"/p2p-overhead.[0-9]*
# 8 bytes, each collected alone; some thousand repeated calls, so that the first call's schedule
# building weighs nothing.
collective() {  # experiment, operation
  mpirun --oversubscribe -np 2 valgrind --tool=callgrind --collect-atstart=no \
    --toggle-collect="SCOMM_$2" --callgrind-out-file="$work/$2.%p" \
    "$build/bench/scomm-mpibench" "$1" --only "$2" --reps 3 --max-bytes 8 >/dev/null 2>&1
  python3 "$root/scripts/instruction_counts.py" collective "$2" "$work/$2".[0-9]*
}
for op in Bcast Reduce Allreduce Scan Gather Gatherv Scatterv Allgather Allgatherv Alltoall \
  Alltoallv Alltoallw Reduce_scatter; do
  collective collectives "$op"
done
# On the periodic 2-D grid of two processes: two messages each way to the other, two copies.
for op in Neighbor_allgather Neighbor_alltoall Neighbor_alltoallv Neighbor_alltoallw; do
  collective neighbor-collectives "$op"
done
