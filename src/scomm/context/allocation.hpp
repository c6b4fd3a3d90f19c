// Collective context allocation (Bosilca et al.), as resumable state machines so that the same
// code serves blocking creation (dup, split) and nonblocking creation (idup, isplit):
//   vanilla  - MAX of each member's lowest free id, then AND to confirm it is free everywhere;
//              repeated from the next id until confirmed.
//   bitmask  - AND of the free-id masks of a window of 2,048 ids (MPICH); the next window when
//              the window has no common free id. As in MPICH, a process offers its window only
//              to the allocation in flight there with the smallest priority value.
//   highest  - MAX of (highest held id + 1): one reduction when no allocation is in flight at any
//              member; otherwise confirmed like vanilla. Falls back to vanilla (which reuses freed
//              ids) when the ids above the highest are exhausted.
// Correct under concurrency: an id a process offers in a confirming reduction is reserved at
// that process until the reduction settles, so two allocations in flight at one process never
// both settle on it; a bitmask round reserves its whole offered window.
// Terminating under concurrency: allocations that reserved each other's candidate at different
// processes would otherwise fail their confirmations in lockstep, moving on to the same next id
// each time. Each nonblocking allocation has a priority, the same at its members and distinct
// among those that can be in flight together at one process. A round refused only because
// allocations of greater priority reserved the candidate is retried on the same candidate (at
// most kContestedRetries times in a row), while those allocations move past it for good: the
// pair no longer competes for that id. A confirming allocation (vanilla, highest) never waits
// for another to settle, and a candidate is offered at most 1 + kContestedRetries times before
// the next higher one, so every allocation ends. A bitmask allocation waits while another ranks
// first at one of its members; the one of the smallest value anywhere ranks first at every
// member and settles, so every allocation ends as long as each process advances its own (scomm
// advances every pending one whenever it waits).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>

#include "scomm/context/context_pool.hpp"
#include "scomm/context/reducer.hpp"

namespace scomm::context {

enum class Algorithm { kVanilla, kBitmask, kHighest };

inline constexpr int kContestedRetries = 2;  // see above

Algorithm algorithm_from_name(std::string_view name);  // "vanilla", "bitmask", "highest"
std::string_view algorithm_name(Algorithm algorithm);

class Allocation {
 public:
  virtual ~Allocation() = default;
  // Advances the allocation; true once result() is known. Throws Error(kContext) when no id is
  // free at every member; every member throws together, as the decision is collective.
  virtual bool progress() = 0;
  // The first id it settled on, and how many consecutive ids from there (1..the count asked).
  ContextId result() const noexcept { return result_; }
  ContextId result_count() const noexcept { return result_count_; }

 protected:
  ContextId result_ = kNoContext;
  ContextId result_count_ = 0;
};

// `pool` and `reducer` must outlive the allocation. A blocking allocation must be driven to
// completion before this process starts another one. `priority` (see above) breaks ties between
// concurrent allocations; blocking ones may keep 0. `count`: the consecutive ids wanted, the same
// at every member; the allocation settles on fewer (at least one) where taking them all would
// cost more reductions: highest-CID takes them above the highest id held, bitmask the common free
// run its window offers, and a confirming round (vanilla, or highest in contention) one id.
std::unique_ptr<Allocation> start_allocation(Algorithm algorithm, ContextPool& pool,
                                             Reducer& reducer, bool nonblocking,
                                             std::uint64_t priority = 0, ContextId count = 1);

// Blocking allocation: starts and drives it to the end, calling `meanwhile` between its polls.
// The caller's other pending work goes there: an allocation in flight beside this one releases
// its reservations only as it advances, and this one may wait for them.
ContextId allocate(Algorithm algorithm, ContextPool& pool, Reducer& reducer,
                   const std::function<void()>& meanwhile = {});

// The ids a blocking allocation of up to `count` consecutive ids settled on: [first, first +
// count).
struct IdRun {
  ContextId first = kNoContext;
  ContextId count = 0;
};
IdRun allocate_run(Algorithm algorithm, ContextPool& pool, Reducer& reducer, ContextId count,
                   const std::function<void()>& meanwhile = {});

}  // namespace scomm::context
