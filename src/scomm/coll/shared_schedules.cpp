#include "scomm/coll/shared_schedules.hpp"

#include <cstdint>
#include <utility>

namespace scomm::coll {

std::size_t SharedSchedules::index(const ScheduleKey& key, int rank, int size) noexcept {
  // FNV-1a over the fields that tell schedules apart.
  std::uint64_t hash = 14695981039346656037ull;
  const auto mix = [&](std::uint64_t word) { hash = (hash ^ word) * 1099511628211ull; };
  mix(static_cast<std::uint64_t>(key.operation));
  mix(static_cast<std::uint64_t>(key.algorithm));
  mix(static_cast<std::uint64_t>(key.root));
  mix(static_cast<std::uint64_t>(key.count));
  mix(static_cast<std::uint64_t>(key.extra));
  mix(static_cast<std::uint64_t>(key.bytes));
  mix((static_cast<std::uint64_t>(key.commutative) << 2) |
      (static_cast<std::uint64_t>(key.in_place) << 1) | static_cast<std::uint64_t>(key.packed));
  mix(static_cast<std::uint64_t>(rank));
  mix(static_cast<std::uint64_t>(size));
  return static_cast<std::size_t>(hash >> 32) % kSlots;
}

std::shared_ptr<const Schedule> SharedSchedules::find(const ScheduleKey& key, int rank,
                                                      int size) const noexcept {
  const Slot& slot = slots_[index(key, rank, size)];
  if (slot.schedule && slot.rank == rank && slot.size == size && slot.key == key)
    return slot.schedule;
  return nullptr;
}

void SharedSchedules::keep(const ScheduleKey& key, int rank, int size,
                           std::shared_ptr<const Schedule> schedule) {
  if (schedule->rounds().size() > kMostRounds ||
      schedule->max_round_transfers() > kMostRoundTransfers)
    return;
  slots_[index(key, rank, size)] = {key, rank, size, std::move(schedule)};
}

}  // namespace scomm::coll
