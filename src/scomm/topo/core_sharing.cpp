#include "scomm/topo/core_sharing.hpp"

#include <array>
#include <cstdlib>
#include <string>

#include "scomm/base/error.hpp"
#include "scomm/topo/hwloc_placement.hpp"

namespace scomm::topo {
namespace {

// This node's ranks outnumber its hardware threads. Where hwloc cannot read the machine, the
// ranks are taken to have their own (the case of production runs).
bool this_node_shares(int node_size, MachineOnDemand& machine) {
  if (node_size == 1) return false;
  try {
    return node_size > machine.get().processing_units();
  } catch (const Error&) {
    return false;
  }
}

}  // namespace

std::optional<std::string> cores_shared_setting() {
  const char* value = std::getenv("SCOMM_CORES_SHARED");
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

bool ranks_share_cores(MPI_Comm world, const std::optional<std::string>& setting,
                       MachineOnDemand& machine, int node_size) {
  const std::string text = setting.value_or("");
  // [0]: this rank's setting is bad, [1]: this rank's node shares.
  std::array<int, 2> mine{0, 0};
  if (text == "0" || text == "1")
    mine[1] = text == "1";
  else if (!text.empty())
    mine[0] = 1;
  else
    mine[1] = this_node_shares(node_size, machine);
  std::array<int, 2> any{};
  MPI_Allreduce(mine.data(), any.data(), 2, MPI_INT, MPI_MAX, world);
  if (any[0] != 0)
    throw Error(ErrorClass::kArg,
                mine[0] != 0 ? "SCOMM_CORES_SHARED: '" + text + "' is not 0 or 1"
                             : std::string("SCOMM_CORES_SHARED is not 0 or 1 at another rank"));
  return any[1] != 0;
}

}  // namespace scomm::topo
