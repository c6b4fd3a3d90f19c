#!/usr/bin/env bash
# The 16-core tables that the open goals of docs/RESULTS.md wait for, as one short run on a lent
# machine (the device tool gives some 15 minutes in all, its start included). It runs the bundle
# that scripts/device_bundle.sh made here and the call carried (DIR, default build-bundle: the
# binary, scomm's libraries and those the machine lacks), with the machine's own mpirun; without
# one it builds scomm-mpibench in DIR, where the machine has every package scripts/setup.sh
# installs. Then split-halves, p2p-overhead and the collectives at 2, 4, 8 and 16 ranks
# (SCOMM_DEVICE_NP to change them; the collectives in two launches of 15 repetitions unless
# SCOMM_COLL_LAUNCHES / SCOMM_COLL_REPS say otherwise), and the result files to
# $OUT/device-results.tgz when $OUT is set. Back here, `tar xzf <files_at>/device-results.tgz`
# and `bash -c 'source scripts/common.sh; write_results'` put them into docs/RESULTS.md.
#   scripts/bench_device.sh [DIR]
set -euo pipefail
source "$(dirname "$0")/common.sh"
build="${1:-build-bundle}"
cd "$root"
start=$SECONDS
# A loan is short: say at once what the machine lacks, and what it is.
require() {
  local missing=() tool
  for tool in "$@"; do command -v "$tool" >/dev/null || missing+=("$tool"); done
  [ "${#missing[@]}" -eq 0 ] && return
  echo "missing here: ${missing[*]}"
  exit 1
}
require mpirun lscpu
echo "$(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1); $(mpirun --version | head -1)"
if [ -x "$build/bench/scomm-mpibench" ] && [ -d "$build/lib" ]; then
  export LD_LIBRARY_PATH="$root/$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  if ldd "$build/bench/scomm-mpibench" | grep "not found"; then exit 1; fi
else
  require cmake ninja mpicxx pkg-config
  build_mpibench "$build" || { if [ -n "${OUT:-}" ]; then cp "$build/build.log" "$OUT"/; fi; exit 1; }
  echo "built in $((SECONDS - start)) s"
fi
read -r -a counts <<<"${SCOMM_DEVICE_NP:-2 4 8 16}"
SCOMM_MPI_EXPERIMENTS="creation p2p coll" SCOMM_COLL_REPS="${SCOMM_COLL_REPS:-15}" \
  SCOMM_COLL_LAUNCHES="${SCOMM_COLL_LAUNCHES:-2}" scripts/bench_mpi.sh "$build" "${counts[@]}"
echo "measured in $((SECONDS - start)) s"
# One archive: the device tool brings back at most eight files.
if [ -n "${OUT:-}" ]; then tar czf "$OUT/device-results.tgz" docs/results/mpi-c"$(nproc)"-*; fi
