#!/usr/bin/env bash
# The multilevel broadcast on SimGrid's SMPI (issue: topo, evaluation): the seed's Fig. 6 loop
# (scomm-mpibench multilevel-bcast) on platforms of nested levels (scripts/smpi_platform.py), one
# smpirun per platform and variant, results in docs/results/smpi-multilevel-*.json; then
# docs/RESULTS.md is regenerated. Needs SimGrid (scripts/bench_simgrid.sh installs it).
#
#   scripts/bench_multilevel.sh [PLATFORM...]   # default: every platform below
set -euo pipefail
source "$(dirname "$0")/common.sh"
source "$(dirname "$0")/smpi_multilevel.sh"
build=build-smpi-ml
build_targets=scomm-mpibench configure_and_build "$build" -DCMAKE_BUILD_TYPE=Release \
  -DSCOMM_SIMGRID=ON
cd "$root"
mkdir -p "$build/platforms" docs/results

# name: smpi_platform.py arguments | scomm-mpibench arguments (roots sampled, sizes).
declare -A platforms=(
  [seed48-wan1ms]="--site 16,16 --site 16 --wan-latency 1ms|"
  [seed48-wan10ms]="--site 16,16 --site 16 --wan-latency 10ms|"
  [fig1-wan10ms]="--site 10 --site 5,5 --wan-latency 10ms|"
  [p1024-wan10ms]="$(printf -- '--site %s ' 16,16,16,16,16,16,16,16,16,16,16,16,16,16,16,16{,,,}) --wan-latency 10ms|--roots 8 --max-bytes 1048576 --quick"
  [p4096-wan10ms]="$(printf -- '--site %s ' 64,64,64,64,64,64,64,64,64,64,64,64,64,64,64,64{,,,}) --wan-latency 10ms|--roots 4 --max-bytes 1048576 --quick"
)
order=(seed48-wan1ms seed48-wan10ms fig1-wan10ms p1024-wan10ms p4096-wan10ms)

# SCOMM_ML_VARIANTS (words) runs only some of the variants (smpi_multilevel.sh).
read -r -a variants <<<"${SCOMM_ML_VARIANTS:-binomial machine site multilevel smpi-mpich smpi-ompi smpi-mvapich2}"

for name in "${@:-${order[@]}}"; do
  spec="${platforms[$name]}"
  prefix="$build/platforms/$name"
  # shellcheck disable=SC2086  # the spec holds several arguments
  python3 scripts/smpi_platform.py "$prefix" ${spec%%|*}
  np="$(wc -l <"$prefix.hosts")"
  for variant in "${variants[@]}"; do
    out="docs/results/smpi-multilevel-$name-$variant"
    start=$(date +%s)
    # shellcheck disable=SC2086  # the spec's experiment arguments are several words
    if ! run_multilevel "$build" "$prefix" "$spec" "$variant" "$out" ${spec#*|}; then
      # A variant this build cannot run (e.g. no multilevel algorithm yet) leaves no results.
      echo "smpi multilevel: $name $variant FAILED: $(tail -1 "$out.txt")"
      rm -f "$out.json"
      continue
    fi
    echo "smpi multilevel: $name $variant ($np ranks): $(($(date +%s) - start)) s wall"
  done
done
write_results
echo "wrote docs/RESULTS.md"
