#!/usr/bin/env bash
# Makes what a lent 16-core machine runs (scripts/bench_device.sh): scomm-mpibench built here and
# the libraries it needs that such a machine lacks. The device tool's machine has its own Open MPI
# (Ubuntu's 4.1.6, ABI-compatible with Debian's: libmpi.so.40 in both) and a newer C++ runtime,
# but not scomm's other dependencies, and it cannot fetch packages; so the bundle holds the
# binary, scomm's libraries and every other library the loader finds for them here, but the C and
# C++ runtimes and MPI's own.
#   scripts/device_bundle.sh [BUNDLE_DIR]   # default build-bundle (ignored by git)
# Then, with the device tool: run command "scripts/bench_device.sh", carry ["build-bundle"],
# timeout_s 600; back here, `tar xzf <files_at>/device-results.tgz` and
# `bash -c 'source scripts/common.sh; write_results'`.
set -euo pipefail
source "$(dirname "$0")/common.sh"
bundle="$root/${1:-build-bundle}"
build_mpibench build-device
rm -rf "$bundle"
mkdir -p "$bundle/bench" "$bundle/lib"
cp "$root/build-device/bench/scomm-mpibench" "$bundle/bench/"
runtime='/(libc|libm|libgcc_s|libstdc\+\+|libmpi|libopen-rte|libopen-pal|libevent[a-z_-]*|libhwloc|libudev|libz|libpmix)[.-]'
ldd "$bundle/bench/scomm-mpibench" | awk '$3 ~ /^\// { print $3 }' | grep -v -E "$runtime" |
  xargs -r cp -L -t "$bundle/lib"
echo "bundle: $(ls "$bundle/lib" | tr '\n' ' ')($(du -sh "$bundle" | cut -f1))"
