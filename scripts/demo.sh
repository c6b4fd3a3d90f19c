#!/usr/bin/env bash
# The demo: builds scomm and shows what it is for. Installs what it needs.
set -euo pipefail
source "$(dirname "$0")/common.sh"
"$root/scripts/setup.sh"
configure_and_build build -DCMAKE_BUILD_TYPE=Release >/dev/null
"$root/build/bench/scomm-bench" demo
echo
echo "Communicators at 4 processes: local creation against MPI's calls, point-to-point against raw MPI"
echo "(ns; median [min .. max] over repetitions; scripts/bench.sh runs the full experiments)"
mpirun -np 4 "$root/build/bench/scomm-mpibench" split-halves p2p-overhead --reps 5
