// What identifies a collective's schedule on a communicator of a given rank and size.
#pragma once

#include <cstdint>

#include "scomm/coll/selection.hpp"

namespace scomm::coll {

// Everything a schedule depends on besides the communicator (whose rank and size are fixed) and
// a v-form's vectors.
struct ScheduleKey {
  Operation operation = Operation::kBarrier;
  Algorithm algorithm = Algorithm::kLinear;
  int root = 0;
  bool in_place = false;
  std::int64_t count = 0;
  std::int64_t extra = 0;  // a second size an algorithm needs (segment, block count, ...)
  bool packed = false;     // the schedule runs on a packed copy of the data (bcast_bytes.hpp)
  // The message's bytes, where the schedule's shape depends on them (the topology layer's trees
  // and segments): a call whose counts are the same but whose types are not builds anew, as a
  // member whose counts changed would.
  std::int64_t bytes = 0;
  // The reduction's operation commutes, where the schedule depends on it (the binomial reduce's
  // root, the scan chain's receive).
  bool commutative = false;

  friend bool operator==(const ScheduleKey&, const ScheduleKey&) = default;
};

}  // namespace scomm::coll
