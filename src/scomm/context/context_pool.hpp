// The context ids this process holds: used by a live communicator, or reserved by an allocation
// in flight. Allocation algorithms ask the pool what is free here and agree with the other
// members through reductions; a reservation keeps two concurrent allocations at this process
// from settling on the same id.
#pragma once

#include <cstdint>
#include <set>
#include <span>
#include <vector>

#include "scomm/context/context_id.hpp"

namespace scomm::context {

class ContextPool {
 public:
  explicit ContextPool(ContextId capacity);

  ContextId capacity() const noexcept { return capacity_; }
  bool is_free(ContextId id) const noexcept;
  // The lowest free id >= from, or capacity() when there is none.
  ContextId lowest_free(ContextId from) const noexcept;
  // One more than the highest id held (used or reserved), 0 when none is held.
  ContextId end_of_held() const noexcept;
  // Free-id bits of [first, first + 64 * words.size()): bit k of word w is id first + 64w + k.
  void free_mask(ContextId first, std::span<std::uint64_t> words) const noexcept;

  // An allocation in flight holds an id by reservation, and commits it once it settles on it.
  void reserve(ContextId id);  // precondition: is_free(id)
  void commit(ContextId id);   // precondition: reserved
  void release(ContextId id);  // a reservation or a used id becomes free again
  // True when some id in [first, first + count) is reserved by an allocation in flight.
  bool any_reserved(ContextId first, ContextId count) const noexcept;
  std::size_t held() const noexcept { return held_; }

  // Allocations in flight at this process, by priority (smaller first; see allocation.hpp). The
  // highest-CID algorithm must confirm when another is in flight; a nonblocking allocation
  // outranked here yields its confirmation rounds.
  int in_flight() const noexcept { return static_cast<int>(in_flight_.size()); }
  void begin_allocation(std::uint64_t priority) { in_flight_.insert(priority); }
  void end_allocation(std::uint64_t priority) noexcept;
  bool outranked(std::uint64_t priority) const noexcept {
    return !in_flight_.empty() && *in_flight_.begin() < priority;
  }

 private:
  ContextId capacity_;
  std::vector<std::uint64_t> held_bits_;
  std::vector<std::uint64_t> reserved_bits_;
  std::size_t held_ = 0;
  std::multiset<std::uint64_t> in_flight_;
};

}  // namespace scomm::context
