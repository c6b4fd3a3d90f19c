#!/usr/bin/env bash
# Runs the split-halves experiment on SimGrid's SMPI at thousands of simulated ranks and adds its
# table to docs/RESULTS.md. Installs SimGrid (Debian's simgrid, libsimgrid-dev) when missing.
set -euo pipefail
source "$(dirname "$0")/common.sh"
"$root/scripts/setup.sh"
if ! dpkg-query -W -f='${Status}' libsimgrid-dev 2>/dev/null | grep -q "ok installed"; then
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    simgrid libsimgrid-dev >/dev/null
fi
configure_and_build build-smpi -DCMAKE_BUILD_TYPE=Release -DSCOMM_SIMGRID=ON
cd "$root"
hosts="${SCOMM_SMPI_MAX_RANKS:-4096}"
platform=build-smpi/cluster.xml
# A homogeneous cluster: one host per rank, 1 us and 10 GB/s links to a backbone.
cat >"$platform" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="cluster" prefix="node-" suffix="" radical="0-$((hosts - 1))" speed="1Gf"
           bw="10GBps" lat="1us" bb_bw="1TBps" bb_lat="0"/>
</platform>
XML
# Computation is not simulated (smpi/simulate-computation:no): SMPI's own MPI_Comm_split runs
# inside the simulator and is charged nothing for its computation, so scomm's is not charged
# either, and the collective times compare the two message patterns on the network model. Under
# SMPI the network is deterministic: three repetitions of the short (--quick) loops suffice.
for np in 16 64 256 1024 4096; do
  [ "$np" -le "$hosts" ] || continue
  echo "smpi bench: split-halves at $np simulated ranks"
  smpirun -np "$np" -platform "$platform" --cfg=smpi/host-speed:1Gf \
    --cfg=smpi/simulate-computation:no --cfg=contexts/stack-size:256 --log=root.thres:critical \
    build-smpi/bench/scomm-mpibench split-halves --quick --reps 3 \
    --json "docs/results/smpi-split-p$np.json" >"docs/results/smpi-split-p$np.txt"
done
write_results
echo "wrote docs/RESULTS.md"
