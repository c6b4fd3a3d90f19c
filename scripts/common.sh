# Shared by the scripts: repository root, parallelism, and running MPI as root in containers.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jobs="$(nproc)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1

# configure_and_build DIR [cmake options...]
configure_and_build() {
  local dir="$1"
  shift
  mkdir -p "$root/$dir"
  if ! { cmake -S "$root" -B "$root/$dir" -G Ninja "$@" && cmake --build "$root/$dir" -j "$jobs"; } \
    >"$root/$dir/build.log" 2>&1; then
    tail -60 "$root/$dir/build.log"
    echo "build of $dir failed (full log: $dir/build.log)"
    return 1
  fi
}
