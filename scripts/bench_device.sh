#!/usr/bin/env bash
# The 16-core tables that the open goals of docs/RESULTS.md wait for, as one short run on a lent
# machine (the device tool gives some 15 minutes in all, its start included): builds
# scomm-mpibench alone in BUILD_DIR (default build-device; the machine needs the packages
# scripts/setup.sh installs), then runs split-halves, p2p-overhead and the collectives at
# 2, 4, 8 and 16 ranks (SCOMM_DEVICE_NP to change them; the collectives in two launches of 15
# repetitions unless SCOMM_COLL_LAUNCHES / SCOMM_COLL_REPS say otherwise), and copies the result
# files to $OUT when it is set. Back here, `bash -c 'source scripts/common.sh; write_results'`
# puts them into docs/RESULTS.md.
#   scripts/bench_device.sh [BUILD_DIR]
set -euo pipefail
source "$(dirname "$0")/common.sh"
build="${1:-build-device}"
cd "$root"
start=$SECONDS
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON \
  -DSCOMM_BUILD_TESTS=OFF -DSCOMM_BUILD_UNIT_TESTS=OFF >/dev/null
ninja -C "$build" scomm-mpibench >/dev/null
echo "built in $((SECONDS - start)) s"
read -r -a counts <<<"${SCOMM_DEVICE_NP:-2 4 8 16}"
SCOMM_MPI_EXPERIMENTS="creation p2p coll" SCOMM_COLL_REPS="${SCOMM_COLL_REPS:-15}" \
  SCOMM_COLL_LAUNCHES="${SCOMM_COLL_LAUNCHES:-2}" scripts/bench_mpi.sh "$build" "${counts[@]}"
echo "measured in $((SECONDS - start)) s"
if [ -n "${OUT:-}" ]; then cp docs/results/mpi-c"$(nproc)"-* "$OUT"/; fi
