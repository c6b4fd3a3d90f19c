// The last schedule built for each operation on one communicator. Iterative codes call the same
// collective with the same arguments again and again; a schedule depends only on the operation,
// the algorithm, the communicator's shape and a few numbers, so a repeated call skips building
// it (and its allocations) altogether, and a repeated blocking call reuses the last one's run.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "scomm/coll/executor.hpp"
#include "scomm/coll/schedule.hpp"
#include "scomm/coll/schedule_key.hpp"
#include "scomm/coll/selection.hpp"
#include "scomm/coll/shared_schedules.hpp"

namespace scomm::coll {

// A call's arguments as words, compared exactly (pointers, counts, roots and MPI handles):
// what replay.hpp compares.
class CallArgs {
 public:
  template <typename... Args>
  explicit CallArgs(const Args&... args) noexcept {
    static_assert(sizeof...(Args) <= kWords);
    std::size_t i = 0;
    ((words_[i++] = word(args)), ...);
  }
  // Every word at once, without a branch or a call to memcmp: each repeated blocking call asks.
  friend bool operator==(const CallArgs& a, const CallArgs& b) noexcept {
    std::uintptr_t differ = 0;
    for (std::size_t i = 0; i < kWords; ++i) differ |= a.words_[i] ^ b.words_[i];
    return differ == 0;
  }

 private:
  static constexpr std::size_t kWords = 8;
  template <typename T>
  static std::uintptr_t word(T value) noexcept {
    if constexpr (std::is_pointer_v<T>)
      return reinterpret_cast<std::uintptr_t>(value);
    else
      return static_cast<std::uintptr_t>(value);  // an integer, or an MPI handle that is one
  }
  std::array<std::uintptr_t, kWords> words_{};
};

class ScheduleCache {
 public:
  // The cache of a communicator of `size` ranks at `rank`; with `shared`, schedules are looked
  // for there before they are built, and kept there once built.
  ScheduleCache(SharedSchedules* shared, int rank, int size) noexcept
      : shared_(shared), rank_(rank), size_(size) {}

  // A v-form's counts and displacements, which its schedule depends on as well.
  using Vectors = std::initializer_list<std::span<const int>>;

  // The arrays a call's vectors were read from (at most alltoallv's four), to read them again.
  class VectorSpans {
   public:
    VectorSpans() = default;
    // Vectors that are all empty (a non-root's of a rooted v-form) keep nothing: their sizes
    // follow from the rank and the root, which the call's other arguments fix.
    explicit VectorSpans(Vectors vectors) noexcept
        : size_(std::all_of(vectors.begin(), vectors.end(),
                            [](std::span<const int> v) { return v.empty(); })
                    ? 0
                    : vectors.size()) {
      assert(vectors.size() <= spans_.size());
      std::copy(vectors.begin(), vectors.begin() + static_cast<std::ptrdiff_t>(size_),
                spans_.begin());
    }
    std::span<const std::span<const int>> view() const noexcept { return {spans_.data(), size_}; }

   private:
    std::array<std::span<const int>, 4> spans_{};
    std::size_t size_ = 0;
  };

  struct Entry {
    ScheduleKey key;
    std::vector<int> vectors;  // each as its size, then its elements
    std::shared_ptr<const Schedule> schedule;
    // The run of the last blocking call, to run the schedule again (executor.hpp).
    std::unique_ptr<ScheduleRun> finished_run;
    std::uint64_t generation = 0;  // schedules built here so far: which one `schedule` is
  };

  // The launches of collectives on the communicator (collective.hpp counts them); when the last
  // one ran a cached schedule to the end (run_again), its entry and the arrays its vectors came
  // from.
  struct Launches {
    std::uint64_t count = 0;
    Entry* rerun = nullptr;
    VectorSpans vectors;
  };
  Launches& launches() noexcept { return launches_; }

  // The last blocking call of one operation, to replay (replay.hpp).
  struct Replay {
    CallArgs args;
    Entry* entry;
    std::uint64_t generation;  // of the entry's schedule when recorded
    VectorSpans vectors;  // the arrays its vectors came from: a replay's must hold the same values
    std::optional<SingleTransfer> single;  // the schedule's one transfer, where it is that alone
  };
  std::optional<Replay>& replay(Operation operation) { return slot(operation).replay; }
  // The entry of `operation`, or null before its first call.
  Entry* entry(Operation operation) noexcept {
    const std::unique_ptr<Slot>& slot = slots_[static_cast<std::size_t>(operation)];
    return slot ? &slot->entry : nullptr;
  }

  // The entry of the schedule for `key`: the cached one, or the one `build()` returns, kept for
  // the next call.
  template <typename Build>
  Entry& get(const ScheduleKey& key, Vectors vectors, Build&& build) {
    Entry& entry = slot(key.operation).entry;
    if (!entry.schedule || !(entry.key == key) ||
        !same(entry.vectors, {vectors.begin(), vectors.size()})) {
      entry.finished_run.reset();  // it runs the schedule being replaced
      entry.schedule = shared_or_built(key, vectors.size() != 0, build);
      ++entry.generation;
      entry.key = key;
      keep(entry.vectors, vectors);
    }
    return entry;
  }

  // Whether `kept` (an entry's vectors) holds the values of `vectors`. A plain loop: std::equal on
  // ints calls memcmp, whose dispatch costs more than comparing the few counts of a small
  // communicator (every repeated v-form call compares them).
  static bool same(const std::vector<int>& kept, std::span<const std::span<const int>> vectors) {
    std::size_t at = 0;
    for (const std::span<const int> v : vectors) {
      if (kept.size() - at < 1 + v.size() || kept[at] != static_cast<int>(v.size())) return false;
      for (std::size_t i = 0; i < v.size(); ++i)
        if (kept[at + 1 + i] != v[i]) return false;
      at += 1 + v.size();
    }
    return at == kept.size();
  }

 private:
  template <typename Build>
  std::shared_ptr<const Schedule> shared_or_built(const ScheduleKey& key, bool has_vectors,
                                                  Build&& build) {
    const bool shareable = shared_ != nullptr && SharedSchedules::shareable(key, has_vectors);
    if (shareable)
      if (auto found = shared_->find(key, rank_, size_)) return found;
    auto built = std::make_shared<const Schedule>(build());
    if (shareable) shared_->keep(key, rank_, size_, built);
    return built;
  }

  static void keep(std::vector<int>& kept, Vectors vectors) {
    kept.clear();
    for (const std::span<const int> v : vectors) {
      kept.push_back(static_cast<int>(v.size()));
      kept.insert(kept.end(), v.begin(), v.end());
    }
  }

  // What the cache keeps of one operation, made on its first call: a new communicator
  // (recursive splitting makes many, each calling few operations) allocates and clears a
  // pointer per operation, not a slot for each.
  struct Slot {
    Entry entry;
    std::optional<Replay> replay;
  };
  Slot& slot(Operation operation) {
    std::unique_ptr<Slot>& slot = slots_[static_cast<std::size_t>(operation)];
    if (!slot) slot = std::make_unique<Slot>();
    return *slot;
  }

  SharedSchedules* shared_;
  int rank_, size_;
  std::array<std::unique_ptr<Slot>, kOperationCount> slots_;
  Launches launches_;
};

}  // namespace scomm::coll
