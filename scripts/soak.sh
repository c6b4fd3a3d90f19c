#!/usr/bin/env bash
# Soaks random_program_test under random settings: each round draws the process count, the
# context allocation algorithm and storage, the derivation bits, the number of base
# communicators, detached sends, the pipeline segment, whether cores count as shared (always,
# where the ranks outnumber the cores: ranks told otherwise spin, and crawl there) and whether
# collectives agree first, then runs fresh seeds of every algorithm set. A failing round is rerun
# exactly by the command it prints (the draws differ from run to run: bash reseeds RANDOM in the
# subshells that draw them, whatever SEED says).
#   scripts/soak.sh BUILD_DIR [ROUNDS] [SEED]   # default: 20 rounds, seed 1
# Environment: SCOMM_SOAK_PROGRAMS (programs a round, 20), SCOMM_SOAK_STEPS (steps a program,
# 1000), SCOMM_SOAK_NP (the process counts drawn from, "1 2 3 4 5 7 8"), SCOMM_SOAK_MPIRUN (the
# launcher and its options, mpirun; mpirun.mpich for the MPICH build, with SCOMM_SOAK_NP="1 2"
# on few cores; smpirun with its platform and options for the SMPI build).
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
pick() { local options=("$@"); echo "${options[RANDOM % ${#options[@]}]}"; }
failed=0
for ((round = 1; round <= rounds; ++round)); do
  np="$(pick $counts)"
  first_seed=$((10000 + RANDOM * 100))
  settings=(
    SCOMM_CONTEXT_ALGORITHM="$(pick highest bitmask vanilla)"
    SCOMM_CONTEXT_STORAGE="$(pick radix array fixed tree)"
    SCOMM_DERIVE_BITS="$(pick 0 1 4 6)"
    SCOMM_BASE_COMMS="$(pick 1 2 16)"
    SCOMM_DETACHED_SENDS="$(pick off 257:4096 1:65536)"
    SCOMM_COLL_SEGMENT="$(pick 64 1024 65536)"
    SCOMM_CORES_SHARED="$(if [ "$np" -le "$jobs" ]; then pick 0 1; else echo 1; fi)"
    SCOMM_COLL_CHECK="$(pick off on)"
    SCOMM_RANDOM_PROGRAMS="$programs" SCOMM_RANDOM_STEPS="$steps"
    SCOMM_RANDOM_FIRST_SEED="$first_seed")
  # shellcheck disable=SC2206  # the launcher may carry options: split into words
  command=(env "${settings[@]}" timeout 1200 $launcher -np "$np"
    "$build/tests/random_program_test" --gtest_brief=1)
  log="$(mktemp)"
  if "${command[@]}" >"$log" 2>&1; then
    echo "round $round: np $np, $(grep -o '[0-9]* tests' "$log" | tail -1) passed"
  else
    failed=$((failed + 1))
    echo "round $round FAILED: ${command[*]}"
    grep -E "Failure|FAILED|Which is|Expected|error|Error" "$log" | head -20
    cp "$log" "$build/soak-failure-$round.log"
    echo "(its whole output: $build/soak-failure-$round.log)"
  fi
  rm -f "$log"
done
echo "soak: $rounds rounds, $failed failed"
[ "$failed" -eq 0 ]
