#!/usr/bin/env bash
# The demo: builds scomm and shows what it is for, in about a minute. Installs what it needs.
set -euo pipefail
source "$(dirname "$0")/common.sh"
"$root/scripts/setup.sh"
echo "Building scomm (Release, $jobs jobs)..."
configure_and_build build -DCMAKE_BUILD_TYPE=Release >/dev/null
bin="$root/build"
np=4

section() { printf '\n=== %s\n\n' "$1"; }

section "1. Group maps: bytes and lookup time of scomm's maps against MPICH's and Open MPI's tables"
"$bin/bench/scomm-bench" demo

section "2. Communicators at $np processes: local creation of the halves against MPI_Comm_split"
echo "(ns; median [min .. max] over repetitions; scripts/bench.sh runs the full experiments)"
mpirun -np "$np" "$bin/bench/scomm-mpibench" split-halves split-ibcast --reps 5 --quick

section "3. Janus quicksort at $np processes: scomm range communicators against MPI_Comm_split"
echo "(the same algorithm built twice; every sort checked: sorted, balanced, a permutation)"
for n in 16 65536; do
  mpirun -np "$np" "$bin/apps/janus_sort/janus-sort" --n "$n" --reps 5
done

section "4. Memory at P = 786,432: 100 odd/even splits of the world, one rank's state"
echo "(built from scomm's real maps and tables in one process; an O(p) table would take 1.5 MB"
echo " per communicator, 157 MB for the 100)"
"$bin/bench/memory/scomm-memory" --filter "100 odd" 2>/dev/null | sed -n '2,5p;/PASS\|FAIL/p'
