#!/usr/bin/env bash
# Installs the Debian 12 packages scomm needs, only those missing. Safe to run again.
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config git
  libopenmpi-dev openmpi-bin libmpich-dev mpich libhwloc-dev
  libroaring-dev libbdd-dev libsdsl-dev libzstd-dev libbz2-dev
  libgtest-dev googletest libbenchmark-dev clang libclang-rt-14-dev clang-format valgrind
  libsimgrid-dev
  python3 python3-matplotlib)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "setup: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
