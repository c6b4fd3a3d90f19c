#!/usr/bin/env bash
# Per-rank memory (docs/MEMORY.md): scomm-memory's analysis of the seeds' workloads at their
# virtual world sizes, and the resident memory per communicator of Debian's Open MPI and MPICH
# and of scomm, measured at small P (oversubscribed) and fitted by make_memory.py.
#   scripts/bench_memory.sh [BUILD_DIR]          (default build-mem)
# SCOMM_RSS_COUNT (1000) communicators per run; MPICH, much slower oversubscribed (it spins),
# runs SCOMM_RSS_MPICH_COUNT (200) at SCOMM_RSS_MPICH_NP (8 16 32).
set -euo pipefail
source "$(dirname "$0")/common.sh"
build="${1:-build-mem}"
cd "$root"
build_targets="scomm-memory mpi-comm-rss scomm-comm-rss" configure_and_build "$build" \
  -DCMAKE_BUILD_TYPE=Release
mpicxx.mpich -O2 -std=c++20 -o "$build/mpi-comm-rss-mpich" bench/memory/mpi_comm_rss.cpp
analyzer="$build/bench/memory/scomm-memory --json docs/results/memory.json"
echo "memory: $analyzer"
$analyzer >docs/results/memory.txt

count="${SCOMM_RSS_COUNT:-1000}" mpich_count="${SCOMM_RSS_MPICH_COUNT:-200}"
lines="$(mktemp)"
trap 'rm -f "$lines"' EXIT
rss() {  # LAUNCHER NP PROGRAM MODE COUNT: one JSON line from rank 0
  echo "memory: $1 -n $2 $3 $4 $5"
  "$1" -n "$2" "$3" "$4" "$5" | grep '^{' >>"$lines"
}
for np in 8 16 32; do
  for mode in dup split; do rss mpirun.openmpi "$np" "$build/bench/memory/mpi-comm-rss" "$mode" "$count"; done
  for mode in dup split range; do
    rss mpirun.openmpi "$np" "$build/bench/memory/scomm-comm-rss" "$mode" "$count"
  done
done
for np in ${SCOMM_RSS_MPICH_NP:-8 16 32}; do
  for mode in dup split; do rss mpirun.mpich "$np" "$build/mpi-comm-rss-mpich" "$mode" "$mpich_count"; done
done
/usr/bin/python3 -c 'import json, sys; print(json.dumps([json.loads(l) for l in open(sys.argv[1])], indent=1))' \
  "$lines" >docs/results/memory-rss.json
/usr/bin/python3 scripts/make_memory.py docs/MEMORY.md docs/results/memory.json \
  docs/results/memory-rss.json --reproduce "./scripts/bench_memory.sh"
echo "memory: wrote docs/MEMORY.md"
