# Shared by the scripts: repository root, parallelism, and running MPI as root in containers.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jobs="$(nproc)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1

# configure_and_build DIR [cmake options...]; builds only $build_targets when set.
configure_and_build() {
  local dir="$1"
  shift
  mkdir -p "$root/$dir"
  local targets=()
  [ -z "${build_targets:-}" ] || targets=(--target $build_targets)
  if ! { cmake -S "$root" -B "$root/$dir" -G Ninja "$@" &&
    cmake --build "$root/$dir" -j "$jobs" "${targets[@]}"; } \
    >"$root/$dir/build.log" 2>&1; then
    tail -60 "$root/$dir/build.log"
    echo "build of $dir failed (full log: $dir/build.log)"
    return 1
  fi
}

# build_mpibench DIR: scomm-mpibench alone, in a Release build without the tests (the device
# runs': scripts/device_bundle.sh, scripts/bench_device.sh).
build_mpibench() {
  build_targets=scomm-mpibench configure_and_build "$1" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_UNITY_BUILD=ON -DSCOMM_BUILD_TESTS=OFF -DSCOMM_BUILD_UNIT_TESTS=OFF
}

# Regenerates docs/RESULTS.md from every result file in docs/results: bench.sh refreshes the group
# and MPI ones, bench_simgrid.sh the SimGrid ones.
write_results() {
  local inputs=()
  for f in "$root"/docs/results/mpi-*.json; do [ -e "$f" ] && inputs+=(--mpi "$f"); done
  for f in "$root"/docs/results/smpi-*.json; do [ -e "$f" ] && inputs+=(--smpi "$f"); done
  local model="$root/docs/results/multilevel-model.json"
  [ -e "$model" ] || model=
  /usr/bin/python3 "$root/scripts/make_results.py" "$root/docs/RESULTS.md" \
    "$root/docs/results/group.json" ${model:+"$model"} "${inputs[@]}" \
    --reproduce "./scripts/bench.sh   # = scomm-bench group-workloads group-classes group-cases avrankmap context-tables --reps ${SCOMM_BENCH_REPS:-5}, then scripts/bench_mpi.sh build 2 3 4 5 8; the 16-core tables: SCOMM_COLL_REPS=15 SCOMM_JANUS_NP=\"8 16\" SCOMM_JANUS_REPS=11 scripts/bench_mpi.sh build 2 4 8 16 on a 16-core machine" \
    --smpi-command "./scripts/bench_simgrid.sh   # = smpirun -np P -platform cluster.xml --cfg=smpi/simulate-computation:no scomm-mpibench split-halves --quick --reps 3, P = 16 .. 4096"
}
