// Collective context allocation (Bosilca et al.), as resumable state machines so that the same
// code serves blocking creation (dup, split) and nonblocking creation (idup, isplit):
//   vanilla  - MAX of each member's lowest id not in use, then AND to confirm it is free
//              everywhere; repeated from the next id until confirmed.
//   bitmask  - AND of the free-id masks of a window of 2,048 ids (MPICH); the next window when
//              the window has no common free id.
//   highest  - MAX of (highest held id + 1): one reduction when no allocation is in flight at any
//              member; otherwise confirmed like vanilla. Falls back to vanilla (which reuses freed
//              ids) when the ids above the highest are exhausted.
// Correct under concurrency: an id a process offers in a confirming reduction is reserved at
// that process until the reduction settles, so two allocations in flight at one process never
// both settle on it; a bitmask round reserves its whole offered window.
// Terminating under concurrency (MPICH's rule, for every algorithm): each allocation has a
// priority, the same at its members and distinct among those that can be in flight together at
// one process (blocking ones have 0, and a process runs one at a time). An allocation ranks at a
// process once its first reduction has completed there, that is once every member has started
// it; a process reserves ids only for the ranked allocation with the smallest priority value, the
// others offer nothing and look again while the ids they look at are in use nowhere (free, or
// only reserved), and one not yet ranked reserves only where it is blocking and alone there, in
// its first round (a nonblocking one's reservations would stand until every member has started
// it, which may wait for what its process does meanwhile). The ranked allocation of the smallest
// value anywhere ranks first at every member, so the reservations it meets are others' from before
// it arrived, which go as their rounds end: it settles, or finds the ids exhausted, and the next
// one ranks first. So every allocation that all its members have started ends as long as each
// process advances its own (scomm advances every pending one whenever it waits), and none fails for
// a reservation that would have gone: no spurious exhaustion near the end of the pool. Ranking at
// arrival, not at the start, is what lets an allocation wait only for those that can end: one that
// some member has not started yet -- a pending idup beside a blocking creation that its peer must
// finish first, or an isplit that a member starts only once a later idup completed -- holds up
// no other. (Where each reserved what it could, allocations over members that overlap in a cycle
// took every free id from one another round after round, and two contending for the last id
// could both fail.)
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>

#include "scomm/context/context_pool.hpp"
#include "scomm/context/reducer.hpp"

namespace scomm::context {

enum class Algorithm { kVanilla, kBitmask, kHighest };

// Rounds in a row a bitmask allocation looks at one window again for reservations of greater
// priority that may go (BitmaskAllocation::next_window).
inline constexpr int kContestedRetries = 2;

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
