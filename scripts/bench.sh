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
# The multilevel broadcast on the schedule simulator, up to 2^20 ranks (about 90 s).
build/bench/scomm-bench multilevel-model --json docs/results/multilevel-model.json \
  >docs/results/multilevel-model.txt
# MPI experiments at 2..8 ranks; the stress benchmark at 4 (oversubscribed above 2 cores here).
SCOMM_STRESS_NP="${SCOMM_STRESS_NP:-4}" scripts/bench_mpi.sh build 2 3 4 5 8
write_results
echo "wrote docs/RESULTS.md"
