#!/usr/bin/env bash
# Runs the reference benchmark experiments and regenerates docs/RESULTS.md from their JSON.
set -euo pipefail
source "$(dirname "$0")/common.sh"
"$root/scripts/setup.sh"
configure_and_build build -DCMAKE_BUILD_TYPE=Release
cd "$root"
reps="${SCOMM_BENCH_REPS:-5}"
# SCOMM_BENCH_SKIP_GROUP=1 keeps the group-layer results (about 15 minutes on 2 cores) as they are.
if [ -z "${SCOMM_BENCH_SKIP_GROUP:-}" ]; then
  build/bench/scomm-bench group-workloads group-classes group-cases avrankmap context-tables \
    --reps "$reps" --json docs/results/group.json --csv docs/results/group.csv >docs/results/group.txt
fi
# MPI experiments, each process count in its own run; above the core count the ranks are
# oversubscribed, which the tables say through P and the machine line.
mpibench() {
  local np="$1" name="$2"
  shift 2
  mpirun -np "$np" build/bench/scomm-mpibench "$@" --json "docs/results/mpi-$name-p$np.json" \
    >"docs/results/mpi-$name-p$np.txt"
}
for np in 2 3 4 5 8; do mpibench "$np" creation split-halves groups-of-four --reps 11; done
mpibench 4 stress context-stress --reps 1 --stress-splits "${SCOMM_STRESS_SPLITS:-10000}"
# Two ranks on two cores: not oversubscribed, so Open MPI spins instead of yielding.
OMPI_MCA_rmaps_base_oversubscribe=0 mpibench 2 p2p p2p-overhead --reps 21
write_results
echo "wrote docs/RESULTS.md"
