#include "scomm/context/allocation.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <span>
#include <string>
#include <utility>

#include "scomm/base/error.hpp"

namespace scomm::context {
namespace {

[[noreturn]] void exhausted(const ContextPool& pool) {
  throw Error(ErrorClass::kContext, "no context id is free at every member (capacity " +
                                        std::to_string(pool.capacity()) + " per process)");
}

// Counts the allocation as in flight at this process until it settles or fails, and as ranked
// from when its first reduction completes.
class InFlight : public Allocation {
 public:
  InFlight(ContextPool& pool, Reducer& reducer, bool nonblocking, std::uint64_t priority,
           ContextId count)
      : pool_(pool),
        reducer_(reducer),
        priority_(priority),
        count_(count),
        nonblocking_(nonblocking) {
    pool_.begin_allocation();
  }
  ~InFlight() override { stop_counting(); }

 protected:
  // Whether the reduction started last has completed; the first one's completion ranks the
  // allocation here.
  bool reduced() {
    if (!reducer_.test()) return false;
    if (!ranked_) {
      pool_.rank_allocation(priority_);
      ranked_ = true;
    }
    return true;
  }
  // Whether it may reserve ids here now: ranked, while it ranks first. Before, only a blocking one
  // alone here: its process starts no other before it ends, while a nonblocking one's reservations
  // would stand until every member has started it, which may wait for what this process does
  // meanwhile.
  bool may_reserve() const noexcept {
    return ranked_ ? pool_.ranks_first(priority_) : !nonblocking_ && pool_.in_flight() == 1;
  }
  // Settles on [id, id + count): the allocation stops counting as in flight here.
  void finish(ContextId id, ContextId count = 1) {
    result_ = id;
    result_count_ = count;
    stop_counting();
  }
  // No id is free at every member: Error(kContext). A failed allocation stops counting at once,
  // though its creation's request may be kept long after: the allocations that rank after it
  // here would otherwise wait for it forever.
  [[noreturn]] void exhaust() {
    stop_counting();
    exhausted(pool_);
  }

  ContextPool& pool_;
  Reducer& reducer_;
  std::uint64_t priority_;
  ContextId count_;  // consecutive ids wanted

 private:
  void stop_counting() noexcept {
    if (std::exchange(counted_, false)) pool_.end_allocation(ranked_, priority_);
  }

  bool nonblocking_;
  bool counted_ = true;
  bool ranked_ = false;
};

constexpr std::uint64_t kAllOnes = ~std::uint64_t{0};

// Vanilla and highest. Vanilla proposes the lowest id not in use here (MAX) and confirms it is
// free everywhere (AND), from the next id on failure. Highest proposes (end of held ids, "another
// allocation is in flight here") by MAX and settles at once when no member flagged; otherwise it
// confirms like vanilla, and it falls back to vanilla when the ids above the highest run out.
// As bitmask's, a confirmation reserves its candidate at a process only while it ranks first
// there; a candidate in use nowhere (free, or only reserved) is confirmed again until it settles.
class ConfirmingAllocation : public InFlight {
 public:
  ConfirmingAllocation(ContextPool& pool, Reducer& reducer, Algorithm algorithm, bool nonblocking,
                       std::uint64_t priority, ContextId count)
      : InFlight(pool, reducer, nonblocking, priority, count) {
    if (algorithm == Algorithm::kVanilla) {
      propose(0);
      return;
    }
    phase_ = Phase::kHighest;
    proposal_[0] = pool_.end_of_held();
    // A nonblocking allocation can always be overtaken by one started later here.
    proposal_[1] = nonblocking || pool_.in_flight() > 1 ? 1 : 0;
    reducer_.start_max(proposal_);
  }

  bool progress() override {
    if (result_ != kNoContext) return true;
    if (!reduced()) return false;
    switch (phase_) {
      case Phase::kHighest:
        settle_highest();
        break;
      case Phase::kPropose:
        confirm(static_cast<ContextId>(proposal_[0]));
        break;
      case Phase::kConfirm:
        settle();
        break;
    }
    return result_ != kNoContext;
  }

 private:
  enum class Phase { kHighest, kPropose, kConfirm };

  void propose(ContextId from) {
    phase_ = Phase::kPropose;
    proposal_ = {pool_.lowest_unused(from), 0};
    reducer_.start_max(std::span(proposal_).first(1));
  }

  // Offers `candidate` for confirmation, reserving it here if it is free and this allocation
  // ranks first here; the second word says whether it is in use here (not even retrying helps).
  void confirm(ContextId candidate) {
    if (candidate >= pool_.capacity()) exhaust();
    phase_ = Phase::kConfirm;
    candidate_ = candidate;
    reserved_ = may_reserve() && pool_.is_free(candidate);
    if (reserved_) pool_.reserve(candidate, priority_);
    confirmation_ = {reserved_ ? kAllOnes : 0, pool_.in_use(candidate) ? 0 : kAllOnes};
    reducer_.start_and(confirmation_);
  }

  void settle() {
    if (confirmation_[0] != 0) {
      pool_.commit(candidate_);
      finish(candidate_);
      return;
    }
    if (reserved_) pool_.release(candidate_);
    // In use nowhere: others' reservations go once their rounds end, and where another ranks
    // first this allocation waits for it to settle.
    if (confirmation_[1] != 0) {
      confirm(candidate_);
      return;
    }
    // Highest-CID's candidate lay above every id held: past it there may be nothing left but
    // freed ids below, so it goes on as vanilla from the first id.
    propose(after_highest_ ? 0 : candidate_ + 1);
    after_highest_ = false;
  }

  void settle_highest() {
    const auto highest = static_cast<ContextId>(proposal_[0]);
    if (highest >= pool_.capacity()) {
      propose(0);  // nothing free above the highest: reuse freed ids
    } else if (proposal_[1] != 0) {
      after_highest_ = true;
      confirm(highest);
    } else {  // above every id held at any member, nothing else in flight: all of them free
      const ContextId count = std::min(count_, pool_.capacity() - highest);
      for (ContextId id = highest; id < highest + count; ++id) pool_.take(id);
      finish(highest, count);
    }
  }

  Phase phase_ = Phase::kPropose;
  ContextId candidate_ = kNoContext;
  bool reserved_ = false;
  bool after_highest_ = false;  // the candidate in confirmation is highest-CID's
  std::array<std::int64_t, 2> proposal_{};
  std::array<std::uint64_t, 2> confirmation_{};  // reserved everywhere, in use nowhere
};

// Bitmask: AND of a window's free masks, the whole offered window reserved meanwhile. As in
// MPICH, a process offers its window only to the ranked allocation in flight there with the
// smallest priority value, and an empty one to the others, which look at the same window again:
// the ranked allocation of the smallest value anywhere gets every member's window, so one of them
// always settles or finds the ids exhausted. Before it ranks, only a blocking allocation alone
// here offers its window: a nonblocking one's first round is empty, one reduction more. (Where each
// offered all it had, allocations over members that overlap in a cycle took every free id from one
// another, round after round, forever.) Beside the free ids each member offers those not in use
// (free, or only reserved by other allocations in flight): where the free ids have nothing in
// common but those do, the window is looked at again (once the others settle or move on, their
// reservations go), and where those have nothing in common either, the others' reservations do not
// matter and the window is done with. Past the last window the allocation starts over from the
// first only when some window of the pass could still free up, and is exhausted otherwise. A word
// says whether every member saw no reservation in the window but of greater priority: then the same
// window is offered again at once (those allocations move on), else the next one; a last one
// whether every member offered its window.
class BitmaskAllocation : public InFlight {
 public:
  static constexpr ContextId kWindow = 2048;
  static constexpr std::size_t kWords = kWindow / 64;

  BitmaskAllocation(ContextPool& pool, Reducer& reducer, bool nonblocking, std::uint64_t priority,
                    ContextId count)
      : InFlight(pool, reducer, nonblocking, priority, count) {
    offer(0);
  }

  bool progress() override {
    if (result_ != kNoContext) return true;
    if (!reduced()) return false;
    ContextId chosen = kNoContext;
    for (std::size_t w = 0; w < kWords && chosen == kNoContext; ++w)
      if (mask_[kFree + w] != 0)
        chosen = first_ + static_cast<ContextId>(64 * w + std::countr_zero(mask_[kFree + w]));
    ContextId count = 0;  // the common free run from `chosen`, up to count_
    while (chosen != kNoContext && count < count_ && common(chosen + count)) ++count;
    release_offer_except(chosen, count);
    if (chosen != kNoContext) {
      for (ContextId id = chosen; id < chosen + count; ++id) pool_.commit(id);
      finish(chosen, count);
      return true;
    }
    offer(next_window());
    return false;
  }

 private:
  // Where each part of the reduced words sits: free ids, ids not in use, and "no reservation but
  // of greater priority".
  static constexpr std::size_t kFree = 0, kUnused = kWords, kNoneOfLesserPriority = 2 * kWords,
                               kEveryoneOffered = 2 * kWords + 1;

  // Whether `id` is free at every member (set in the reduced mask of the window).
  bool common(ContextId id) const noexcept {
    const ContextId offset = id - first_;
    return offset < kWindow && (mask_[kFree + offset / 64] >> (offset % 64) & 1) != 0;
  }

  ContextId next_window() {
    if (mask_[kEveryoneOffered] == 0) return first_;  // another allocation ranks first somewhere
    const bool could_free = std::any_of(mask_.begin() + kUnused, mask_.begin() + kUnused + kWords,
                                        [](std::uint64_t word) { return word != 0; });
    if (could_free && mask_[kNoneOfLesserPriority] != 0 && contested_ < kContestedRetries) {
      ++contested_;
      return first_;
    }
    contested_ = 0;
    could_free_in_pass_ = could_free_in_pass_ || could_free;
    const ContextId next = first_ + kWindow;
    if (next < pool_.capacity() || !could_free_in_pass_) return next;  // past the end: exhausted
    could_free_in_pass_ = false;
    return 0;
  }

  void offer(ContextId first) {
    if (first >= pool_.capacity()) exhaust();
    first_ = first;
    if (!may_reserve()) {
      mask_.fill(0);
      offered_.fill(0);
      reducer_.start_and(mask_);
      return;
    }
    const auto free = std::span(mask_).subspan(kFree, kWords);
    pool_.free_mask(first, free);
    pool_.unused_mask(first, std::span(mask_).subspan(kUnused, kWords));
    mask_[kNoneOfLesserPriority] =
        pool_.any_reserved_up_to(first, kWindow, priority_) ? 0 : kAllOnes;
    mask_[kEveryoneOffered] = kAllOnes;
    std::copy_n(free.begin(), kWords, offered_.begin());
    for_each_offered([&](ContextId id) { pool_.reserve(id, priority_); });
    reducer_.start_and(mask_);
  }

  void release_offer_except(ContextId kept, ContextId count) {
    for_each_offered([&](ContextId id) {
      if (id < kept || id >= kept + count) pool_.release(id);
    });
  }

  template <typename Visit>
  void for_each_offered(Visit visit) {
    for (std::size_t w = 0; w < offered_.size(); ++w)
      for (std::uint64_t bits = offered_[w]; bits != 0; bits &= bits - 1)
        visit(first_ + static_cast<ContextId>(64 * w + std::countr_zero(bits)));
  }

  ContextId first_ = 0;
  int contested_ = 0;                // rounds in a row on one window for others' reservations
  bool could_free_in_pass_ = false;  // some window since the first could free up
  std::array<std::uint64_t, 2 * kWords + 2> mask_{};
  std::array<std::uint64_t, kWords> offered_{};
};

}  // namespace

Algorithm algorithm_from_name(std::string_view name) {
  if (name == "vanilla") return Algorithm::kVanilla;
  if (name == "bitmask") return Algorithm::kBitmask;
  if (name == "highest") return Algorithm::kHighest;
  throw Error(ErrorClass::kArg, "unknown context allocation algorithm '" + std::string(name) +
                                    "' (vanilla, bitmask or highest)");
}

std::string_view algorithm_name(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::kVanilla:
      return "vanilla";
    case Algorithm::kBitmask:
      return "bitmask";
    case Algorithm::kHighest:
      return "highest";
  }
  return "?";
}

std::unique_ptr<Allocation> start_allocation(Algorithm algorithm, ContextPool& pool,
                                             Reducer& reducer, bool nonblocking,
                                             std::uint64_t priority, ContextId count) {
  switch (algorithm) {
    case Algorithm::kBitmask:
      return std::make_unique<BitmaskAllocation>(pool, reducer, nonblocking, priority, count);
    case Algorithm::kVanilla:
    case Algorithm::kHighest:
      return std::make_unique<ConfirmingAllocation>(pool, reducer, algorithm, nonblocking, priority,
                                                    count);
  }
  return nullptr;
}

IdRun allocate_run(Algorithm algorithm, ContextPool& pool, Reducer& reducer, ContextId count,
                   const std::function<void()>& meanwhile) {
  const auto allocation = start_allocation(algorithm, pool, reducer, false, 0, count);
  while (!allocation->progress())
    if (meanwhile) meanwhile();
  return {allocation->result(), allocation->result_count()};
}

ContextId allocate(Algorithm algorithm, ContextPool& pool, Reducer& reducer,
                   const std::function<void()>& meanwhile) {
  return allocate_run(algorithm, pool, reducer, 1, meanwhile).first;
}

}  // namespace scomm::context
