// Collective context allocation (Bosilca et al.), as resumable state machines so that the same
// code serves blocking creation (dup, split) and nonblocking creation (idup, isplit):
//   vanilla  - MAX of each member's lowest free id, then AND to confirm it is free everywhere;
//              repeated from the next id until confirmed.
//   bitmask  - AND of the free-id masks of a window of 2,048 ids (MPICH); the next window when
//              the window has no common free id.
//   highest  - MAX of (highest held id + 1): one reduction when no allocation is in flight at any
//              member; otherwise confirmed like vanilla. Falls back to vanilla (which reuses freed
//              ids) when the ids above the highest are exhausted.
// Correct under concurrency: an id a process offers in a confirming reduction is reserved at
// that process until the reduction settles, so two allocations in flight at one process never
// both settle on it; a bitmask round reserves its whole offered window.
// Terminating under concurrency: concurrent allocations that reserve each other's candidate at
// different processes could otherwise fail their confirmations in lockstep forever. Each
// allocation has a priority, the same at all its members and distinct among allocations that can
// be in flight together at one process; a nonblocking allocation outranked at a process (a
// smaller priority in flight there) yields its confirmation rounds there -- offers and reserves
// nothing, and the round is retried, not counted as a failure. The allocation of smallest
// priority in flight then meets no competing reservation at its members after one round and
// settles, and so on. Blocking allocations have priority 0 and never yield: a process is in at
// most one, and a blocking caller does not progress the others, so waiting on them could deadlock.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "scomm/context/context_pool.hpp"
#include "scomm/context/reducer.hpp"

namespace scomm::context {

enum class Algorithm { kVanilla, kBitmask, kHighest };

Algorithm algorithm_from_name(std::string_view name);  // "vanilla", "bitmask", "highest"
std::string_view algorithm_name(Algorithm algorithm);

class Allocation {
 public:
  virtual ~Allocation() = default;
  // Advances the allocation; true once result() is known. Throws Error(kContext) when no id is
  // free at every member; every member throws together, as the decision is collective.
  virtual bool progress() = 0;
  ContextId result() const noexcept { return result_; }

 protected:
  ContextId result_ = kNoContext;
};

// `pool` and `reducer` must outlive the allocation. A blocking allocation must be driven to
// completion before this process starts another one. `priority` (> 0 for nonblocking ones; see
// above) orders concurrent allocations.
std::unique_ptr<Allocation> start_allocation(Algorithm algorithm, ContextPool& pool,
                                             Reducer& reducer, bool nonblocking,
                                             std::uint64_t priority = 0);

// Blocking allocation: starts and drives it to the end.
ContextId allocate(Algorithm algorithm, ContextPool& pool, Reducer& reducer);

}  // namespace scomm::context
