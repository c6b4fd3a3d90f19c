#!/usr/bin/env bash
# Installs the build into a temporary prefix, then builds and runs a C and a C++ consumer twice:
# with CMake's find_package(scomm) and plain compilers, and with pkg-config and MPI's compilers.
# check.sh BUILD_DIR MPI_C_COMPILER MPI_CXX_COMPILER (those the build used).
set -euo pipefail
build="$1" mpicc="$2" mpicxx="$3"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
# Plain compilers: find_package(scomm) alone brings MPI's headers and libraries, those of the MPI
# scomm was built with.
cmake -S "$here" -B "$work/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
LD_LIBRARY_PATH="$work/prefix/lib" "$work/consumer/consumer"
LD_LIBRARY_PATH="$work/prefix/lib" "$work/consumer/consumer_cxx"
# ldd's output is read whole before it is searched: a grep that stops at its first match would
# leave ldd writing to a closed pipe, and pipefail would then fail the check at random.
scomm_links="$(ldd "$build"/src/libscomm.so*)"
mpi_library="$(basename "$(grep -m1 -oE '/\S*lib(mpi|mpich)\.so\S*' <<<"$scomm_links")")"
consumer_links="$(LD_LIBRARY_PATH="$work/prefix/lib" ldd "$work/consumer/consumer_cxx")"
grep -qF "$mpi_library" <<<"$consumer_links" ||
  { echo "the find_package consumer does not link $mpi_library, the MPI scomm was built with"; exit 1; }
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
"$mpicc" "$here/consumer.c" -o "$work/consumer-pc" $(pkg-config --cflags --libs scomm)
LD_LIBRARY_PATH="$work/prefix/lib" "$work/consumer-pc"
"$mpicxx" -std=c++20 "$here/consumer.cpp" -o "$work/consumer-cxx-pc" $(pkg-config --cflags --libs scomm)
LD_LIBRARY_PATH="$work/prefix/lib" "$work/consumer-cxx-pc"
echo "install check passed"
