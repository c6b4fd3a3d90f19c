// SCOMM_Comm_get_attr (the topology keyvals here, MPI's predefined ones and the user's in
// capi/attributes.cpp) and SCOMM_Topo_level_name: a communicator's levels.
#include <optional>

#include "scomm.h"
#include "scomm/capi/context.hpp"

using scomm::Error;
using scomm::ErrorClass;
using scomm::capi::CommEntry;
using scomm::capi::CommTopology;
using scomm::capi::context;
using scomm::capi::on_comm;
using scomm::capi::require;

namespace {

CommTopology& topology_of(CommEntry& entry) {
  return entry.topology(context().world_levels, context().world_costs);
}

// The value of communicator `comm`'s attribute for a predefined or a user's keyval; nullopt where
// it has none.
std::optional<void*> attribute_of(SCOMM_Comm comm, CommEntry& entry, int keyval) {
  if (keyval == SCOMM_TOPOLOGY_DEPTHS) return topology_of(entry).depths();
  if (keyval == SCOMM_TOPOLOGY_COLORS) return topology_of(entry).colors();
  void* value = nullptr;
  const std::optional<bool> mpi = scomm::capi::mpi_attribute(keyval, &value);
  if (!(mpi ? *mpi : scomm::capi::user_attribute(comm, keyval, &value))) return std::nullopt;
  return value;
}

}  // namespace

extern "C" {

int SCOMM_Comm_get_attr(SCOMM_Comm comm, int comm_keyval, void* attribute_val, int* flag) {
  return on_comm("SCOMM_Comm_get_attr", comm, [&](CommEntry& entry) {
    require(attribute_val, "attribute_val");
    require(flag, "flag");
    const std::optional<void*> value = attribute_of(comm, entry, comm_keyval);
    if (value) *static_cast<void**>(attribute_val) = *value;
    *flag = value ? 1 : 0;
  });
}

int SCOMM_Topo_level_name(SCOMM_Comm comm, int level, char* name, int* resultlen) {
  return on_comm("SCOMM_Topo_level_name", comm, [&](CommEntry& entry) {
    require(name, "name");
    require(resultlen, "resultlen");
    const scomm::topo::Levels& levels = topology_of(entry).levels();
    if (level < 0 || level >= levels.depth())
      throw Error(ErrorClass::kArg, "level " + std::to_string(level) + " outside 0.." +
                                        std::to_string(levels.depth() - 1));
    scomm::capi::copy_c_string(levels.name(level), SCOMM_MAX_OBJECT_NAME, name, resultlen);
  });
}

}  // extern "C"
