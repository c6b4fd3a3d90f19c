# Sourced by bench_multilevel.sh and demo.sh: one run of the multilevel broadcast experiment
# (scomm-mpibench multilevel-bcast) on a SimGrid platform of nested levels written by
# smpi_platform.py, for one variant.

# The variants' environments. The 2-level variants give the multilevel builder one level of the
# true topology; SMPI's own algorithms run through SCOMM_COLL_BCAST=native.
#   variant_env VARIANT PLATFORM_PREFIX LINKS
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

# run_multilevel BUILD PREFIX SPEC VARIANT OUT [scomm-mpibench arguments...]: one smpirun on the
# platform PREFIX.{xml,hosts,topo} made from SPEC (smpi_platform.py's arguments), with BUILD's
# scomm-mpibench; rows in OUT.json, its output in OUT.txt. Fails as smpirun does.
run_multilevel() {
  local build="$1" prefix="$2" spec="$3" variant="$4" out="$5"
  shift 5
  local np
  np="$(wc -l <"$prefix.hosts")"
  # shellcheck disable=SC2046  # the environment and configuration are several words
  env $(variant_env "$variant" "$prefix" "$(platform_links "$spec")") smpirun -np "$np" \
    -platform "$prefix.xml" -hostfile "$prefix.hosts" "${smpi_cfg[@]}" $(variant_cfg "$variant") \
    "$build/bench/scomm-mpibench" multilevel-bcast --reps 1 --variant "$variant" \
    --topology "$prefix.topo" "$@" --json "$out.json" >"$out.txt" 2>&1
}
