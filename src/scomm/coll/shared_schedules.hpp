// Schedules shared by the communicators of one process. Recursive splitting creates many
// communicators of few shapes, each running a collective or two before it is freed; a new
// communicator whose rank and size match an earlier one's runs the schedule built for that one
// instead of building its own. Only schedules that depend on nothing but the key, the rank and
// the size are shared: not a v-form's (its vectors), nor the topology layer's (the
// communicator's levels), nor a neighborhood collective's (its virtual topology). A direct-mapped
// table: each slot holds the last short schedule that hashed there, and long ones are not kept, so
// what outlives the communicators stays small.
#pragma once

#include <array>
#include <cstddef>
#include <memory>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/schedule_key.hpp"

namespace scomm::coll {

class SharedSchedules {
 public:
  static constexpr std::size_t kSlots = 64;
  // Kept only up to this many rounds, and this many transfers in any round.
  static constexpr std::size_t kMostRounds = 128;
  static constexpr std::size_t kMostRoundTransfers = 32;

  // Whether a schedule of `key` (with a v-form's vectors or not) depends on no more than the key,
  // the rank and the size.
  static bool shareable(const ScheduleKey& key, bool has_vectors) noexcept {
    return !has_vectors && key.algorithm != Algorithm::kMultilevel &&
           !is_neighborhood(key.operation);
  }
  // The kept schedule of `key` at `rank` of `size` ranks, or null.
  std::shared_ptr<const Schedule> find(const ScheduleKey& key, int rank, int size) const noexcept;
  // Keeps `schedule` (shareable) for later communicators of the same shape, if it is short.
  void keep(const ScheduleKey& key, int rank, int size, std::shared_ptr<const Schedule> schedule);
  void clear() noexcept { slots_ = {}; }

 private:
  struct Slot {
    ScheduleKey key;
    int rank = -1;
    int size = 0;
    std::shared_ptr<const Schedule> schedule;
  };
  static std::size_t index(const ScheduleKey& key, int rank, int size) noexcept;

  std::array<Slot, kSlots> slots_{};
};

}  // namespace scomm::coll
