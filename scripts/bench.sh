#!/usr/bin/env bash
# Runs the reference benchmark experiments and regenerates docs/RESULTS.md from their JSON.
set -euo pipefail
source "$(dirname "$0")/common.sh"
"$root/scripts/setup.sh"
configure_and_build build -DCMAKE_BUILD_TYPE=Release
cd "$root"
reps="${SCOMM_BENCH_REPS:-5}"
build/bench/scomm-bench group-workloads group-classes group-cases avrankmap context-tables --reps "$reps" \
  --json docs/results/group.json --csv docs/results/group.csv >docs/results/group.txt
/usr/bin/python3 scripts/make_results.py docs/RESULTS.md docs/results/group.json \
  --reproduce "./scripts/bench.sh   # = scomm-bench group-workloads group-classes group-cases avrankmap context-tables --reps $reps"
echo "wrote docs/RESULTS.md"
