// The context ids this process holds: used by a live communicator, or reserved by an allocation
// in flight. Allocation algorithms ask the pool what is free here and agree with the other
// members through reductions; a reservation keeps two concurrent allocations at this process
// from settling on the same id.
#pragma once

#include <cassert>
#include <cstdint>
#include <ranges>
#include <set>
#include <span>
#include <unordered_map>
#include <vector>

#include "scomm/context/context_id.hpp"

namespace scomm::context {

class ContextPool {
 public:
  explicit ContextPool(ContextId capacity);

  ContextId capacity() const noexcept { return capacity_; }
  bool is_free(ContextId id) const noexcept {  // inline: release() asks on every free
    return id < capacity_ && !((held_bits_[id / 64] >> (id % 64)) & 1);
  }
  // Whether `id` is used by a communicator here (held, and not only reserved).
  bool in_use(ContextId id) const noexcept { return !is_free(id) && !reserved(id); }
  // The lowest id >= from not in use (free, or only reserved by an allocation in flight), or
  // capacity() when there is none.
  ContextId lowest_unused(ContextId from) const noexcept;
  // One more than the highest id held (used or reserved), 0 when none is held.
  ContextId end_of_held() const noexcept;
  // Free-id bits of [first, first + 64 * words.size()): bit k of word w is id first + 64w + k.
  void free_mask(ContextId first, std::span<std::uint64_t> words) const noexcept;
  // The same bits of the ids not in use (free, or only reserved).
  void unused_mask(ContextId first, std::span<std::uint64_t> words) const noexcept;

  // An allocation in flight holds an id by reservation, and commits it once it settles on it.
  // `priority` is the reserving allocation's (allocation.hpp); 0 ranks first.
  void reserve(ContextId id, std::uint64_t priority = 0);  // precondition: is_free(id)
  void commit(ContextId id);                               // precondition: reserved
  // Holds `id` at once, unreserved (an allocation that settles without confirmation, on ids no
  // member holds). Precondition: is_free(id).
  void take(ContextId id) noexcept;
  // A reservation or a used id becomes free again. Inline: every free of a communicator that
  // took a whole block passes here.
  void release(ContextId id) {
    if (id >= capacity_ || is_free(id)) [[unlikely]]
      throw_not_held(id);
    held_bits_[id / 64] &= ~(std::uint64_t{1} << (id % 64));
    if (reserved(id)) [[unlikely]]
      drop_reservation(id);
    --held_;
  }
  // Gives back ids that communicators used (held, and not reserved since their allocation
  // committed them), a batch at once: one word each, without release()'s checks.
  template <std::ranges::input_range Ids>
  void release_used(Ids&& ids) noexcept {
    std::uint64_t* const bits = held_bits_.data();
    std::size_t released = 0;
    for (const ContextId id : ids) {
      assert(id < capacity_ && !is_free(id) && !reserved(id));
      bits[id / 64] &= ~(std::uint64_t{1} << (id % 64));
      ++released;
    }
    held_ -= released;
  }
  // Whether some id in [first, first + count) is reserved with priority <= `priority`.
  bool any_reserved_up_to(ContextId first, ContextId count, std::uint64_t priority) const noexcept;
  std::size_t held() const noexcept { return held_; }
  // Memory of this object: its bit arrays and the reservation map (nodes and buckets).
  std::size_t bytes() const noexcept;

  // Allocations in flight at this process (highest-CID must confirm when another is). One ranks
  // once its first reduction has completed -- every member has started it -- and an allocation
  // reserves ids only while no ranked one here has a smaller priority value (allocation.hpp).
  std::size_t in_flight() const noexcept { return in_flight_; }
  void begin_allocation() noexcept { ++in_flight_; }
  void rank_allocation(std::uint64_t priority) { ranked_.insert(priority); }
  void end_allocation(bool ranked, std::uint64_t priority) noexcept {
    --in_flight_;
    if (ranked) ranked_.erase(ranked_.find(priority));
  }
  // Whether no ranked allocation here has a smaller priority value than `priority`.
  bool ranks_first(std::uint64_t priority) const noexcept {
    return ranked_.empty() || priority <= *ranked_.begin();
  }

 private:
  bool reserved(ContextId id) const noexcept {
    return id < capacity_ && ((reserved_bits_[id / 64] >> (id % 64)) & 1);
  }
  std::uint64_t reserver(ContextId id) const noexcept;
  [[noreturn]] static void throw_not_held(ContextId id);
  void drop_reservation(ContextId id);  // its bit and its priority

  ContextId capacity_;
  std::vector<std::uint64_t> held_bits_;
  std::vector<std::uint64_t> reserved_bits_;
  std::size_t held_ = 0;
  std::unordered_map<ContextId, std::uint64_t> reserver_;  // priority of nonzero reservers
  std::size_t in_flight_ = 0;
  std::multiset<std::uint64_t> ranked_;
};

}  // namespace scomm::context
