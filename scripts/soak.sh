#!/usr/bin/env bash
# Soaks random_program_test under random settings: each round draws the process count, the
# context allocation algorithm and storage, the derivation bits, the number of base
# communicators, detached sends, the pipeline segment, whether cores count as shared (always,
# where the ranks outnumber the cores: ranks told otherwise spin, and crawl there) and whether
# collectives agree first, then runs fresh seeds of every algorithm set. A failing round is rerun
# exactly by the command it prints; the same SEED draws the same rounds.
#   scripts/soak.sh BUILD_DIR [ROUNDS] [SEED]   # default: 20 rounds, seed 1
# Environment: SCOMM_SOAK_PROGRAMS (programs a round, 20), SCOMM_SOAK_STEPS (steps a program,
# 1000), SCOMM_SOAK_NP (the process counts drawn from, "1 2 3 4 5 7 8"), SCOMM_SOAK_MPIRUN (the
# launcher and its options, mpirun; mpirun.mpich for the MPICH build, with SCOMM_SOAK_NP="1 2"
# on few cores; smpirun with its platform and options for the SMPI build), SCOMM_SOAK_SHARDS
# (launches a round's programs are split over, 1: GoogleTest's sharding. Under SimGrid 3.32
# every request a test completes slows the rest of the simulation down, docs/DESIGN.md, so an
# SMPI round of many programs wants several, e.g. 10).
set -uo pipefail
source "$(dirname "$0")/common.sh"
build="${1:?usage: scripts/soak.sh BUILD_DIR [ROUNDS] [SEED]}"
[[ "$build" == /* ]] || build="$root/$build"
rounds="${2:-20}"
RANDOM="${3:-1}"
programs="${SCOMM_SOAK_PROGRAMS:-20}"
steps="${SCOMM_SOAK_STEPS:-1000}"
launcher="${SCOMM_SOAK_MPIRUN:-mpirun}"
counts="${SCOMM_SOAK_NP:-1 2 3 4 5 7 8}"
shards="${SCOMM_SOAK_SHARDS:-1}"
# pick VARIABLE OPTION...: one of the options into the variable, drawn in this shell (a subshell,
# as in $(...), would draw from a reseeded RANDOM).
pick() {
  local -n chosen="$1"
  shift
  local options=("$@")
  chosen="${options[RANDOM % ${#options[@]}]}"
}
failed=0
for ((round = 1; round <= rounds; ++round)); do
  pick np $counts
  first_seed=$((10000 + RANDOM * 100))
  pick algorithm highest bitmask vanilla
  pick storage radix array fixed tree
  pick derive_bits 0 1 4 6
  pick base_comms 1 2 16
  pick detached off 257:4096 1:65536
  pick segment 64 1024 65536
  shared=1
  if [ "$np" -le "$jobs" ]; then pick shared 0 1; fi
  pick check off on
  settings=(
    SCOMM_CONTEXT_ALGORITHM="$algorithm" SCOMM_CONTEXT_STORAGE="$storage"
    SCOMM_DERIVE_BITS="$derive_bits" SCOMM_BASE_COMMS="$base_comms"
    SCOMM_DETACHED_SENDS="$detached" SCOMM_COLL_SEGMENT="$segment"
    SCOMM_CORES_SHARED="$shared" SCOMM_COLL_CHECK="$check"
    SCOMM_RANDOM_PROGRAMS="$programs" SCOMM_RANDOM_STEPS="$steps"
    SCOMM_RANDOM_FIRST_SEED="$first_seed")
  passed=0
  for ((shard = 0; shard < shards; ++shard)); do
    # shellcheck disable=SC2206  # the launcher may carry options: split into words
    command=(env "${settings[@]}" GTEST_TOTAL_SHARDS="$shards" GTEST_SHARD_INDEX="$shard"
      timeout 1200 $launcher -np "$np" "$build/tests/random_program_test" --gtest_brief=1)
    log="$(mktemp)"
    if "${command[@]}" >"$log" 2>&1; then
      ran="$(grep -o '[0-9]* tests' "$log" | tail -1 | grep -o '[0-9]*')"
      passed=$((passed + ${ran:-0}))
    else
      failed=$((failed + 1))
      echo "round $round FAILED: ${command[*]}"
      grep -E "Failure|FAILED|Which is|Expected|error|Error" "$log" | head -20
      cp "$log" "$build/soak-failure-$round-$shard.log"
      echo "(its whole output: $build/soak-failure-$round-$shard.log)"
    fi
    rm -f "$log"
  done
  echo "round $round: np $np, $algorithm/$storage, derive $derive_bits, base $base_comms," \
    "$passed tests passed"
done
echo "soak: $rounds rounds, $failed launches failed"
[ "$failed" -eq 0 ]
