#!/usr/bin/env bash
# The whole test suite: a clang-format check, Open MPI build (unit + MPI tests at 1-8 and 16
# ranks, abort tests at 1-3; valgrind on the unit tests and on the MPI tests at 3 ranks), MPICH
# build (MPI and abort tests at 1-2 ranks), ASan+UBSan build, SimGrid SMPI build (MPI tests on simulated ranks), install check
# and a short fuzz run. Installs what it needs.
set -euo pipefail
source "$(dirname "$0")/common.sh"
"$root/scripts/setup.sh"
cd "$root"
status=0
passed=0
failed=0
# Runs ctest and adds its counts to the totals printed at the end.
run_ctest() {
  local log
  log="$(mktemp)"
  ctest --test-dir "$@" --output-on-failure --no-tests=error -j "$jobs" 2>&1 | tee "$log" || true
  local summary
  summary="$(grep -E 'tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -1)"
  if [ -z "$summary" ]; then
    status=1
  else
    local bad total
    bad="$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$summary")"
    total="$(sed -E 's/.* failed out of ([0-9]+).*/\1/' <<<"$summary")"
    passed=$((passed + total - bad))
    failed=$((failed + bad))
    [ "$bad" -eq 0 ] || status=1
  fi
  rm -f "$log"
}

# Runs GoogleTest binaries side by side, each as one process (sanitizer start-up is slow, so not
# one per test), and adds their counts to the totals. Each argument is one command line:
# run_gtests "binary [flags...]" ...
run_gtests() {
  local commands=("$@") logs=() pids=() i
  for i in "${!commands[@]}"; do
    logs+=("$(mktemp)")
    # shellcheck disable=SC2086  # word splitting turns the string into the binary and its flags
    ${commands[$i]} --gtest_brief=1 >"${logs[$i]}" 2>&1 &
    pids+=($!)
  done
  local name ran bad
  for i in "${!commands[@]}"; do
    name="$(basename "${commands[$i]%% *}")"
    wait "${pids[$i]}" || { tail -60 "${logs[$i]}"; status=1; }
    ran="$(sed -nE 's/.*\] ([0-9]+) tests? from .* ran.*/\1/p' "${logs[$i]}" | head -1)"
    bad="$(sed -nE 's/.*FAILED *\] *([0-9]+) tests?.*/\1/p' "${logs[$i]}" | head -1)"
    ran="${ran:-0}" bad="${bad:-0}"
    [ "$ran" -gt 0 ] || status=1
    echo "$name: $((ran - bad)) passed, $bad failed"
    passed=$((passed + ran - bad))
    failed=$((failed + bad))
    rm -f "${logs[$i]}"
  done
}

# Prints how long the stage that just ended took.
stage_started=$SECONDS
stage() {
  echo "-- $((SECONDS - stage_started)) s"
  stage_started=$SECONDS
  echo "== $1"
}

stage "clang-format (.clang-format at the root)"
if git ls-files '*.cpp' '*.hpp' '*.c' '*.h' | xargs clang-format --dry-run -Werror; then
  echo "format: clean"
else
  status=1
fi

# Every build but the fuzz one compiles each target as a few unity sources, which parses the
# shared headers once per batch (it halves the builds on two cores; sources name their helpers
# apart so that any batch compiles). The builds after the Release one check behaviour, not speed:
# the library at -O1 -g1 (reports still name functions and lines) without link-time
# optimization, the tests at -O0 (at -O1 the ASan build takes 90 s longer and its tests 40 s
# less).
unity=-DCMAKE_UNITY_BUILD=ON
checking_build=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG"
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DSCOMM_TEST_COMPILE_OPTIONS=-O0 "$unity")

stage "Open MPI, Release"
# 16 ranks too, in this build only (some 50 s; the collective tests sweep five roots there, not
# all): a test that sizes something for at most 8 ranks shows there.
configure_and_build build -DCMAKE_BUILD_TYPE=Release -DSCOMM_TEST_PROCS="1;2;3;4;5;7;8;16" "$unity"
run_ctest build

stage "valgrind, unit tests"
# The largest strategy sizes, the group shapes over 10^5 ranks and more (half the group tests'
# time; smaller shapes take the same branches), the concurrency test and the million-rank
# simulation are left to the other runs (valgrind runs threads one at a time, some 50 times
# slower). Each program runs as two shards, all side by side.
valgrind_skip="-Sizes/StrategyTest.*/1:*1000003:*200000:*100000"
valgrind_skip+=":CompressedListTest.ConcurrentSelectsSeeCorrectValues:Simulator.AMillionRanks"
valgrind_runs=()
for t in group_tests context_tests coll_tests capi_tests; do
  for shard in 0 1; do
    GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$shard valgrind -q --error-exitcode=1 --leak-check=full \
      --errors-for-leak-kinds=definite "build/tests/$t" --gtest_brief=1 --gtest_filter="$valgrind_skip" \
      >"build/valgrind-$t-$shard.log" 2>&1 &
    valgrind_runs+=("$t-$shard:$!")
  done
done
for run in "${valgrind_runs[@]}"; do
  wait "${run#*:}" && echo "valgrind ${run%:*}: clean" ||
    { tail -40 "build/valgrind-${run%:*}.log"; status=1; }
done

stage "valgrind, MPI tests at 3 ranks"
# Each rank of every MPI test program under memcheck at 3 ranks (a count that is not a power of
# two takes the most branches of the schedules), one program at a time (three ranks fill two
# cores). The suppressions leave out only what Open MPI, PMIx and hwloc report of themselves.
# The million live communicators are left to the Release and ASan runs (30 s here), and so is
# objects_after_finalize, which leaves a matched message unreceived at MPI_Finalize on purpose:
# Open MPI then never frees the message's communicator, a leak of its own.
/usr/bin/python3 scripts/valgrind_mpi_tests.py --skip='\.million\.|objects_after_finalize' build 3 \
  /usr/share/openmpi/openmpi-valgrind.supp tests/valgrind-mpi.supp || status=1

stage "MPICH, MPI and abort tests at 1-2 ranks and the install check"
configure_and_build build-mpich "${checking_build[@]}" -DSCOMM_MPI=mpich -DSCOMM_TEST_PROCS="1;2" \
  -DSCOMM_BUILD_BENCH=OFF -DSCOMM_BUILD_UNIT_TESTS=OFF
run_ctest build-mpich -L "mpi|install|abort"

stage "ASan+UBSan"
configure_and_build build-asan "${checking_build[@]}" -DSCOMM_SANITIZE=ON -DSCOMM_TEST_PROCS="1;2" \
  -DSCOMM_BUILD_BENCH=OFF
export ASAN_OPTIONS=detect_leaks=1
export LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The million-rank and 10^5-rank simulations, the largest strategy sizes and the group shapes
# over 10^6 ranks are left to the Release run (ASan at -O0 slows them most).
run_gtests "build-asan/tests/group_tests --gtest_filter=-Sizes/StrategyTest.*/1:*1000003" \
  build-asan/tests/context_tests build-asan/tests/capi_tests \
  "build-asan/tests/coll_tests --gtest_filter=-Simulator.AMillionRanks" \
  "build-asan/tests/topo_tests --gtest_filter=-MultilevelScale*"
# Open MPI's libraries have no frame pointers: the slow unwinder walks through them, so that leak
# reports name them for the suppressions (too slow for the unit tests, which allocate a lot);
# Open MPI unloads its plugins at finalize, and keeping them mapped keeps their names.
export OMPI_MCA_mca_base_component_disable_dlclose=1
export ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0
run_ctest build-asan -L mpi
unset OMPI_MCA_mca_base_component_disable_dlclose ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS

stage "SimGrid SMPI: every MPI test program at 1, 3 and 8 simulated ranks, scale_check to 256"
configure_and_build build-smpi-tests "${checking_build[@]}" -DSCOMM_SIMGRID=ON -DSCOMM_BUILD_BENCH=OFF \
  -DSCOMM_BUILD_UNIT_TESTS=OFF -DSCOMM_TEST_PROCS="1;3;8"
run_ctest build-smpi-tests -L mpi

stage "libFuzzer, 30 s on both cores"
build_targets=group_ops_fuzz CC=clang CXX=clang++ configure_and_build build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSCOMM_FUZZ=ON -DSCOMM_BUILD_TESTS=OFF -DSCOMM_BUILD_BENCH=OFF
mkdir -p build-fuzz/corpus
# Two workers sharing one corpus (-fork): as many inputs as one worker's minute.
if build-fuzz/fuzz/group_ops_fuzz -fork="$jobs" -max_total_time=30 -max_len=256 \
  build-fuzz/corpus >build-fuzz/fuzz.log 2>&1; then
  echo "fuzz: $(grep -o '^#[0-9]*' build-fuzz/fuzz.log | tail -1 | tr -d '#') inputs run"
else
  tail -40 build-fuzz/fuzz.log
  status=1
fi

stage "done"
[ $status -eq 0 ] || echo "FAILURES above"
echo "scomm: $passed passed, $failed failed"
exit $status
