#!/usr/bin/env bash
# The multilevel broadcast on SimGrid's SMPI (issue: topo, evaluation): the seed's Fig. 6 loop
# (scomm-mpibench multilevel-bcast) on platforms of nested levels (scripts/smpi_platform.py), one
# smpirun per platform and variant, results in docs/results/smpi-multilevel-*.json; then
# docs/RESULTS.md is regenerated. Needs SimGrid (scripts/bench_simgrid.sh installs it).
#
#   scripts/bench_multilevel.sh [PLATFORM...]   # default: every platform below
set -euo pipefail
source "$(dirname "$0")/common.sh"
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

# variant: environment | smpirun configuration. The 2-level variants give the multilevel builder
# one level of the true topology; SMPI's own algorithms run through SCOMM_COLL_BCAST=native.
# SCOMM_ML_VARIANTS (words) runs only those.
read -r -a variants <<<"${SCOMM_ML_VARIANTS:-binomial machine site multilevel smpi-mpich smpi-ompi smpi-mvapich2}"
variant_env() {
  case "$1" in
    binomial) echo "SCOMM_COLL_BCAST=binomial" ;;
    machine) echo "SCOMM_COLL_BCAST=multilevel SCOMM_TOPO_FILE=$2-machine.topo" ;;
    # Without the node level discovery would add (a SimGrid host is a machine).
    site) echo "SCOMM_COLL_BCAST=multilevel SCOMM_TOPO_FILE=$2-site.topo SCOMM_TOPO_NODE=off" ;;
    # The true topology, and the platform's links for the builder's cost model.
    multilevel) echo "SCOMM_COLL_BCAST=multilevel SCOMM_TOPO_FILE=$2.topo SCOMM_TOPO_LINKS=$3" ;;
    smpi-*) echo "SCOMM_COLL_BCAST=native" ;;
  esac
}
# SCOMM_TOPO_LINKS of a platform spec: smpi_platform.py's links (a message between sites crosses
# the WAN and both machines' NICs, WAN + LAN latency in all), 1 us per message at the sender.
platform_links() {
  local wan_ms
  wan_ms="$(sed -n 's/.*--wan-latency \([0-9.]*\)ms.*/\1/p' <<<"$1")"
  local site_us
  site_us="$(python3 -c "print(f'{${wan_ms:-10} * 1000 + 100:g}')")"
  echo "site=${site_us}us:100MB/s:1us,machine=100us:1GB/s:1us,inside=1us:10GB/s:1us"
}
variant_cfg() {
  case "$1" in
    smpi-*) echo "--cfg=smpi/coll-selector:${1#smpi-}" ;;
  esac
}

# Latencies as written in the platform (no SMPI calibration factors) and an eager protocol below
# 64 KiB (async-small-thresh), as real MPIs have; computation is not simulated.
# SCOMM_Init's allgather of the named levels' colors uses MPICH's algorithms: SMPI's default
# completes P - 1 exchanges one waitany at a time, quadratic in P (hours at 1,024 ranks).
smpi_cfg=(--cfg=smpi/simulate-computation:no --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1
  --cfg=smpi/async-small-thresh:65536 --cfg=contexts/stack-size:256 --cfg=smpi/allgather:mpich
  --log=root.thres:critical)

for name in "${@:-${order[@]}}"; do
  spec="${platforms[$name]}"
  prefix="$build/platforms/$name"
  # shellcheck disable=SC2086  # the spec holds several arguments
  python3 scripts/smpi_platform.py "$prefix" ${spec%%|*}
  np="$(wc -l <"$prefix.hosts")"
  for variant in "${variants[@]}"; do
    out="docs/results/smpi-multilevel-$name-$variant"
    start=$(date +%s)
    # shellcheck disable=SC2046,SC2086
    if ! env $(variant_env "$variant" "$prefix" "$(platform_links "$spec")") smpirun -np "$np" -platform "$prefix.xml" \
      -hostfile "$prefix.hosts" "${smpi_cfg[@]}" $(variant_cfg "$variant") \
      "$build/bench/scomm-mpibench" multilevel-bcast --reps 1 --variant "$variant" \
      --topology "$prefix.topo" ${spec#*|} --json "$out.json" >"$out.txt" 2>&1; then
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
