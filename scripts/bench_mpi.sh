#!/usr/bin/env bash
# The MPI experiments of docs/RESULTS.md on an existing build, at the given process counts:
#   scripts/bench_mpi.sh BUILD_DIR NP...
# Result files are named for the machine's core count (docs/results/mpi-c<cores>-...), so runs
# from several machines stand side by side; bench.sh runs it here, and on a 16-core machine
#   scripts/bench_mpi.sh build 2 4 8 16
# measures 16 ranks without oversubscription. Above the core count the ranks are
# oversubscribed, which the tables say through P and the machine line. SCOMM_MPI_EXPERIMENTS
# (words among creation coll neighbors janus stress p2p; default all) reruns only those groups.
set -euo pipefail
source "$(dirname "$0")/common.sh"
build="$1"
shift
counts=("$@")
launches="${SCOMM_COLL_LAUNCHES:-3}"
if ! [[ "$launches" =~ ^[1-9][0-9]*$ ]]; then
  echo "SCOMM_COLL_LAUNCHES: '$launches' is not a positive number of launches" >&2
  exit 2
fi
label="c$(nproc)"
cd "$root"
# Whether the group of experiments `$1` is to run.
wanted() {
  [[ " ${SCOMM_MPI_EXPERIMENTS:-creation coll neighbors janus stress p2p} " == *" $1 "* ]]
}
mpibench() {
  local np="$1" name="$2"
  shift 2
  wanted "$name" || return 0
  local out="docs/results/mpi-$label-$name-p$np${launch_suffix:-}"
  echo "mpi bench: $name at $np ranks"
  mpirun -np "$np" $(binding "$np") "$build/bench/scomm-mpibench" "$@" --json "$out.json" >"$out.txt"
}
# Ranks that fit the cores get a core each, as HPC launchers place them. Open MPI binds 2 ranks
# to cores by itself but leaves more unbound, free to migrate: on 16 cores, P = 8, the same
# code's small reduce read 0.85-1.37x native from launch to launch unbound, 0.68-0.81x bound.
# Oversubscribed ranks stay unbound, so that a waiting rank's core can serve another. Cores, not
# hardware threads: mpirun refuses to bind more ranks than there are cores.
cores="$(lscpu -p=SOCKET,CORE | grep -v '^#' | sort -u | wc -l)"
binding() {
  [ "$1" -le "$cores" ] && echo "--bind-to core" || true
}
# 51 repetitions: one of 200,000 local creations lasts some 10 ms, so 11 spanned a tenth of a
# second, which one disturbance of a shared machine could fill (one rank read 50.7 ns against
# 41-45 in the runs around it); 51 span half a second to 2 s.
for np in "${counts[@]}"; do mpibench "$np" creation split-halves groups-of-four --reps 51; done
# Group `$1`'s experiments (the rest of the arguments) in $launches launches at each count.
launched() {
  local name="$1"
  shift
  wanted "$name" || return 0
  for np in "${counts[@]}"; do rm -f docs/results/mpi-"$label"-"$name"-p"$np"-launch*; done
  for ((launch = 1; launch <= launches; ++launch)); do
    for np in "${counts[@]}"; do
      launch_suffix="$([ "$launch" -gt 1 ] && echo "-launch$launch" || true)" \
        mpibench "$np" "$name" "$@" --reps "${SCOMM_COLL_REPS:-7}"
    done
  done
}
# Collectives against the base MPI's, split + Ibcast, and the cost model against measurements,
# in SCOMM_COLL_LAUNCHES launches (default 3) at each count, the counts in turn: from launch to
# launch a small cell moves by 0.1-0.3x (16 cores), more than between repetitions of one launch, so
# make_results.py takes each ratio's median over the launches (files ...-launch2, -launch3 beside
# the first; stale ones go first).
launched coll collectives split-ibcast simulator-fit
# The neighborhood collectives on a periodic 2-D grid, and distributed graph creation, against
# the base MPI's, launched alike.
launched neighbors neighbor-collectives dist-graph-create
# Janus quicksort, scomm ranges against MPI_Comm_split, at the largest count unless told (the
# issue's goal is at 8 ranks: SCOMM_JANUS_NP="8 16" on a 16-core machine).
for np in ${SCOMM_JANUS_NP:-${counts[-1]}}; do mpibench "$np" janus janus-sort --reps "${SCOMM_JANUS_REPS:-5}"; done
# The stress benchmark at the largest count unless told (10,000 splits of each algorithm).
mpibench "${SCOMM_STRESS_NP:-${counts[-1]}}" stress context-stress --reps 1 \
  --stress-splits "${SCOMM_STRESS_SPLITS:-10000}"
# Two ranks on two cores: not oversubscribed, so Open MPI spins instead of yielding.
OMPI_MCA_rmaps_base_oversubscribe=0 mpibench 2 p2p p2p-overhead --reps 21
