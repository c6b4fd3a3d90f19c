#!/usr/bin/env bash
# The demo: builds scomm (on the default MPI, and the MPI benchmarks on SimGrid SMPI) and shows
# what it is for, in under 30 seconds once built. Installs what it needs.
set -euo pipefail
source "$(dirname "$0")/common.sh"
source "$(dirname "$0")/smpi_multilevel.sh"
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
echo "(the same algorithm built twice; every sort checked: sorted, balanced, a permutation;"
echo " in-creation: the time spent making and freeing subgroups, local ranges or MPI_Comm_split)"
for n in 16 65536; do
  mpirun -np "$np" "$bin/apps/janus_sort/janus-sort" --n "$n" --reps 5
done

section "4. Memory at P = 786,432: 100 odd/even splits of the world, one rank's state"
echo "(built from scomm's real maps and tables in one process; an O(p) table would take 1.5 MB"
echo " per communicator, 157 MB for the 100)"
"$bin/bench/memory/scomm-memory" --filter "100 odd" 2>/dev/null | sed -n '2,5p;/PASS\|FAIL/p'

section "5. Multilevel broadcast on SimGrid SMPI: 20 simulated ranks at two sites, 10 ms apart"
echo "(simulated time of one broadcast, mean over 4 roots: a flat binomial tree against scomm's"
echo " multilevel tree, which crosses the WAN once; scripts/bench_multilevel.sh runs every platform)"
echo "Building scomm-mpibench on SMPI (once)..."
build_targets=scomm-mpibench configure_and_build build-smpi-ml -DCMAKE_BUILD_TYPE=Release \
  -DSCOMM_SIMGRID=ON >/dev/null
spec="--site 10 --site 5,5 --wan-latency 10ms"
platform="$root/build-smpi-ml/platforms/demo"
mkdir -p "$(dirname "$platform")"
# shellcheck disable=SC2086  # the spec holds several arguments
python3 "$root/scripts/smpi_platform.py" "$platform" $spec
for variant in binomial multilevel; do
  run_multilevel "$root/build-smpi-ml" "$platform" "$spec" "$variant" "$platform-$variant" \
    --roots 4 --max-bytes 1048576
done
python3 - "$platform" <<'PY'
import json, sys
rows = {v: json.load(open(f"{sys.argv[1]}-{v}.json"))["rows"] for v in ("binomial", "multilevel")}
print(f"{'bytes':>9} {'binomial ms':>12} {'multilevel ms':>14} {'speed-up':>9}")
for flat, multi in zip(rows["binomial"], rows["multilevel"]):
    if int(flat["extra"]["bytes"]) in (1, 1024, 65536, 1048576):
        print(f"{flat['extra']['bytes']:>9} {flat['median'] / 1e6:12.2f} {multi['median'] / 1e6:14.2f}"
              f" {flat['median'] / multi['median']:8.2f}x")
PY
