#!/usr/bin/env bash
# Thousands of simulated ranks (issue 7 part 3): tests/smpi/scale_check under SimGrid's SMPI, with
# scomm (every result compared with SMPI's own MPI) and natively (the MPI calls alone), at 1,024
# and 4,096 ranks; wall time, the simulator's peak resident memory and its heap at the workload's
# peak (malloc's bytes in use, without the ranks' copies of the program) per simulated rank go to
# docs/results/smpi-scale-pP.json and docs/RESULTS.md. Needs SimGrid (scripts/bench_simgrid.sh
# installs it). SCOMM_SMPI_SCALE_RANKS overrides the rank counts; SCOMM_SMPI_SCALE_VARIANTS runs only
# the variants named (say "native"), keeping the other variants' runs already in the JSON file.
set -euo pipefail
source "$(dirname "$0")/common.sh"
build_targets=scale_check configure_and_build build-smpi-scale -DCMAKE_BUILD_TYPE=Release \
  -DSCOMM_SIMGRID=ON
cd "$root"
# Writes the runs of one rank count, replacing those of the same variants already in $1.
merge_scale_runs() {
  /usr/bin/python3 - "$@" <<'PY'
import json, os, sys
path, ranks, simgrid, runs = sys.argv[1], int(sys.argv[2]), sys.argv[3], json.loads(sys.argv[4])
old = json.load(open(path))["runs"] if os.path.exists(path) else []
fresh = {run["mode"] for run in runs}
runs = [run for run in old if run["mode"] not in fresh] + runs
order = {"scomm": 0, "scomm-1base": 1, "scomm-multilevel": 2, "native": 3}
runs.sort(key=lambda run: order.get(run["mode"], len(order)))
with open(path, "w") as out:
    json.dump({"experiment": "smpi-scale", "ranks": ranks, "simgrid": simgrid, "runs": runs}, out)
    out.write("\n")
PY
}
# One run, with environment assignments $4 and smpirun options $5 (words): prints
# "passed wall_s peak_kib" and keeps the program's output in $log.
run_mode() {
  local np="$1" mode="$2" log="$3" times
  times="$(mktemp)"
  local passed=true
  # shellcheck disable=SC2086  # words
  env $4 /usr/bin/time -f "%e %M" -o "$times" smpirun -np "$np" \
    -platform build-smpi-scale/smpi-cluster.xml --cfg=smpi/host-speed:1Gf \
    --cfg=smpi/simulate-computation:no --cfg=contexts/stack-size:256 $5 \
    --log=root.thres:critical build-smpi-scale/tests/scale_check "$mode" >"$log" 2>&1 || passed=false
  echo "$passed $(tail -1 "$times")"
  rm -f "$times"
}
# Variants: scomm; scomm-1base, with one base communicator (SCOMM_BASE_COMMS=1: 65,536 contexts
# instead of 2^20, and 15 fewer MPI_Comm_dup of the world per rank), at
# SCOMM_SMPI_SCALE_1BASE_RANKS only (default 1024: each 4,096-rank run takes over half an hour
# here); scomm-multilevel, with levels named (sites of 256 ranks, machines of 16), so that the
# collectives run their multilevel schedules by default, at SCOMM_SMPI_SCALE_ML_RANKS only (default
# 1024); native, the MPI calls alone.
variant_env() {
  case "$1" in
    scomm-1base) echo "SCOMM_BASE_COMMS=1" ;;
    scomm-multilevel) echo "SCOMM_TOPO_BLOCKS=site=256,machine=16" ;;
  esac
}
# Named levels make SCOMM_Init allgather each rank's colors: SMPI's default allgather posts all
# P - 1 exchanges at once and completes them one waitany at a time, quadratic in P (hours at
# 1,024 ranks); MPICH's algorithms (Bruck, recursive doubling) take log P rounds.
variant_cfg() {
  case "$1" in
    scomm-multilevel) echo "--cfg=smpi/allgather:mpich" ;;
  esac
}
for np in ${SCOMM_SMPI_SCALE_RANKS:-1024 4096}; do
  runs=()
  variants=(scomm)
  [[ " ${SCOMM_SMPI_SCALE_1BASE_RANKS:-1024} " == *" $np "* ]] && variants+=(scomm-1base)
  [[ " ${SCOMM_SMPI_SCALE_ML_RANKS:-1024} " == *" $np "* ]] && variants+=(scomm-multilevel)
  variants+=(native)
  [ -n "${SCOMM_SMPI_SCALE_VARIANTS:-}" ] && read -r -a variants <<<"$SCOMM_SMPI_SCALE_VARIANTS"
  for variant in "${variants[@]}"; do
    mode="${variant%%-*}"
    echo "smpi scale: scale_check $variant at $np simulated ranks"
    log="docs/results/smpi-scale-p$np-$variant.txt"
    read -r passed wall kib < <(run_mode "$np" "$mode" "$log" "$(variant_env "$variant")" \
      "$(variant_cfg "$variant")")
    summary="$(grep -m1 '^scale_check' "$log" || echo 'no summary')"
    heap="$(sed -nE 's/.*heap ([0-9]+) B after MPI_Init, ([0-9]+) B at the peak.*/\1 \2/p' <<<"$summary")"
    read -r heap_start heap_peak <<<"${heap:-0 0}"
    runs+=("{\"mode\": \"$variant\", \"passed\": $passed, \"wall_s\": $wall, \"peak_rss_bytes\": $((kib * 1024)), \"heap_start_bytes\": $heap_start, \"heap_peak_bytes\": $heap_peak, \"summary\": \"$summary\"}")
  done
  merge_scale_runs "docs/results/smpi-scale-p$np.json" "$np" "$(smpirun -version 2>&1 | head -1)" \
    "[$(IFS=,; echo "${runs[*]}")]"
done
write_results
echo "wrote docs/RESULTS.md"
