// The scomm build's subgroups: local range creations.
#include <stdexcept>
#include <string>

#include "backend.hpp"

namespace janus::detail {

void check_rc(int rc, const char* prefix, const char* call) {
  if (rc != MPI_SUCCESS)
    throw std::runtime_error(std::string(prefix) + "_" + call + " failed: " + std::to_string(rc));
}

int ScommCalls::creation_slots(Comm comm) {
  int slots = 0;
  ScommBackend::check(SCOMM_Comm_local_slots(comm, &slots), "Comm_local_slots");
  return slots;
}

ScommCalls::Comm ScommCalls::create(Comm parent, std::span<const Range> ranges) {
  // Members of every range make this one creation; the others pass the first range and get
  // SCOMM_COMM_NULL, so all members of the parent count the same creations (docs/DESIGN.md).
  const int mine = range_of(ranges, ScommBackend::rank(parent));
  const Range& range = ranges[mine < 0 ? 0 : static_cast<std::size_t>(mine)];
  Comm child = kNullComm;
  ScommBackend::check(SCOMM_Comm_create_range(parent, range.first, range.last, 1, &child),
                      "Comm_create_range");
  return child;
}

}  // namespace janus::detail
