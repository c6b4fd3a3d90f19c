#!/usr/bin/env bash
# The demo: builds scomm and shows what it is for. Installs what it needs.
set -euo pipefail
source "$(dirname "$0")/common.sh"
"$root/scripts/setup.sh"
configure_and_build build -DCMAKE_BUILD_TYPE=Release >/dev/null
exec "$root/build/bench/scomm-bench" demo
