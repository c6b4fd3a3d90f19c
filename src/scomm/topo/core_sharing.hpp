// Whether the world's ranks share cores: some node runs more of them than it has hardware
// threads (hwloc), as when a test oversubscribes a laptop. A pipelined schedule then waits, stage
// after stage, for ranks that are not running, so the selection (coll/selection.hpp) keeps to
// fewer, longer steps there.
#pragma once

#include <mpi.h>

#include <optional>
#include <string>

#include "scomm/topo/hwloc_placement.hpp"

namespace scomm::topo {

// SCOMM_CORES_SHARED at this rank, if set. Read before SCOMM_Init sends anything: under SMPI the
// simulated ranks share one environment, which another rank may change while this one waits.
std::optional<std::string> cores_shared_setting();

// Collective over `world`; every rank returns the same answer (one MAX reduction: one node that
// shares is enough). A `setting` of "1" or "0" answers for a rank instead of hwloc (`machine`,
// loaded only when asked); any other value is Error(kArg) at that rank, and then at every rank.
// `node_size`: the world's ranks on this rank's node (discovery's).
bool ranks_share_cores(MPI_Comm world, const std::optional<std::string>& setting,
                       MachineOnDemand& machine, int node_size);

}  // namespace scomm::topo
