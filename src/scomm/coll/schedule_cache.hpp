// The last schedule built for each operation on one communicator. Iterative codes call the same
// collective with the same arguments again and again; a schedule depends only on the operation,
// the algorithm, the communicator's shape and a few numbers, so a repeated call skips building
// it (and its allocations) altogether.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/selection.hpp"

namespace scomm::coll {

// Everything a schedule depends on besides the communicator (whose rank and size are fixed).
struct ScheduleKey {
  Operation operation = Operation::kBarrier;
  Algorithm algorithm = Algorithm::kLinear;
  int root = 0;
  bool in_place = false;
  std::int64_t count = 0;
  std::int64_t extra = 0;  // a second size an algorithm needs (segment, block count, ...)

  friend bool operator==(const ScheduleKey&, const ScheduleKey&) = default;
};

class ScheduleCache {
 public:
  // The cached schedule for `key`, or the one `build()` returns, kept for the next call.
  template <typename Build>
  std::shared_ptr<const Schedule> get(const ScheduleKey& key, Build&& build) {
    Entry& entry = entries_[static_cast<std::size_t>(key.operation)];
    if (!entry.schedule || !(entry.key == key)) {
      entry.schedule = std::make_shared<const Schedule>(build());
      entry.key = key;
    }
    return entry.schedule;
  }

 private:
  struct Entry {
    ScheduleKey key;
    std::shared_ptr<const Schedule> schedule;
  };
  std::array<Entry, kOperationCount> entries_;
};

}  // namespace scomm::coll
