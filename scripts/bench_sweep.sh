#!/usr/bin/env bash
# Which algorithm a cell of the collectives table should take: collectives (--only NAMES, up to
# MAX_BYTES) under several selections, each variant launched in turn at each process count and
# the whole round repeated LAUNCHES times, so that every variant meets the same machine; then the
# median over launches of scomm / native per variant, count and size. Made for short loans of the
# 16-core machine (docs/MEASUREMENTS.md records what each sweep decided).
#   scripts/bench_sweep.sh BUILD NAMES MAX_BYTES "NP..." VARIANT...
# VARIANT: "default", or environment assignments separated by spaces, e.g.
#   "SCOMM_COLL_REDUCE=pipelined_tree SCOMM_COLL_SEGMENT=1024"
# SCOMM_SWEEP_LAUNCHES (default 2) and SCOMM_SWEEP_REPS (default 15); the rows go to stdout and,
# when $OUT is set, to $OUT/sweep.txt.
set -euo pipefail
source "$(dirname "$0")/common.sh"
build="$1" names="$2" max_bytes="$3"
read -r -a counts <<<"$4"
shift 4
cd "$root"
if [ -d "$build/lib" ]; then export LD_LIBRARY_PATH="$root/$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; fi
cores="$(lscpu -p=SOCKET,CORE | grep -v '^#' | sort -u | wc -l)"
rows="$(mktemp)"
for ((launch = 1; launch <= ${SCOMM_SWEEP_LAUNCHES:-2}; ++launch)); do
  for np in "${counts[@]}"; do
    binding=()
    [ "$np" -le "$cores" ] && binding=(--bind-to core)
    for variant in "$@"; do
      settings=()
      [ "$variant" != default ] && read -r -a settings <<<"$variant"
      env "${settings[@]}" mpirun -np "$np" "${binding[@]}" "$build/bench/scomm-mpibench" \
        collectives --only "$names" --max-bytes "$max_bytes" --reps "${SCOMM_SWEEP_REPS:-15}" |
        awk -v np="$np" -v variant="$variant" '/, scomm / {
          for (i = 1; i <= NF; ++i) if ($i ~ /^scomm\/native=/) ratio = substr($i, 14)
          print np "\t" variant "\t" $3 " " $4 "\t" ratio }' >>"$rows"
    done
  done
done
# One line per count, variant and cell: the median ratio over launches, and each launch's.
summary="$(sort -t$'\t' -k1,1n -k2,2 -k3,3V "$rows" | awk -F'\t' '
  function flush() { if (n) { m = n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
    printf "P=%-3s %-58s %-16s %.2f  (%s)\n", p, v, c, m, all } n = 0; all = "" }
  $1 != p || $2 != v || $3 != c { flush(); p = $1; v = $2; c = $3 }
  { r[++n] = $4; all = all (all ? " " : "") $4
    for (i = n; i > 1 && r[i] < r[i - 1]; --i) { t = r[i]; r[i] = r[i - 1]; r[i - 1] = t } }
  END { flush() }')"
rm -f "$rows"
echo "$summary"
if [ -n "${OUT:-}" ]; then echo "$summary" >"$OUT/sweep.txt"; fi
