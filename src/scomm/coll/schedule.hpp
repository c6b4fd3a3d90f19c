// A collective algorithm's plan for one rank: rounds of sends and receives between communicator
// ranks, each followed by local copies and reductions. Pure C++ (no MPI): the executor runs a
// schedule over scomm point-to-point, the cost model prices it without running it, so the same
// algorithm is measured and simulated.
//
// Buffers are named, not pointed to: the user's input (send buffer), the user's output (receive
// buffer) and temporary buffers the schedule declares. Offsets and counts are in elements of the
// buffer's type: the send type for the input, the receive type for the output, the declared type
// for a temporary. Within a round, no receive may write what a send of the same round reads.
//
// A w-form's blocks (MPI_Alltoallw's) each have a type and a place of their own: its schedule
// names them as views, the slots after input and output, whose address and type the executor's
// binding gives in order; a view's offsets and counts are in elements of its own type. The
// temporaries take the slots after the views.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace scomm::coll {

using Slot = std::uint32_t;
inline constexpr Slot kInput = 0;
inline constexpr Slot kOutput = 1;

// The element types a collective knows: its send type and its receive type (the same for
// reductions), and bytes (MPI_BYTE) for temporaries holding packed data (bcast_bytes.hpp).
enum class TypeId : std::uint8_t { kSend = 0, kRecv = 1, kByte = 2 };

struct Block {
  Slot slot = kOutput;
  std::int64_t offset = 0;  // elements of the slot's type
  std::int64_t count = 0;
};

struct Transfer {
  int peer = 0;  // communicator rank
  Block block;
};

enum class LocalKind : std::uint8_t {
  kCopy,         // to = from (signatures equal, types may differ)
  kReduceLeft,   // to = from op to: `from` holds the lower ranks' contribution
  kReduceRight,  // to = to op from: `from` holds the higher ranks' contribution
};

struct LocalStep {
  LocalKind kind = LocalKind::kCopy;
  Block from;
  Block to;
};

// Receives and sends are posted together; the local steps run, in order, once all of them have
// completed.
struct Round {
  std::vector<Transfer> receives;
  std::vector<Transfer> sends;
  std::vector<LocalStep> local;
  // The transfers may also complete one at a time, in order: each peer reaches its matching
  // transfer without waiting for another of the round (the root of a linear gather, scatter or
  // barrier, where it is the peer's only step or follows steps already complete).
  bool one_by_one = false;
  // The local steps touch no block of the round's transfers: they run while the transfers are in
  // flight instead of after them (a neighborhood's copies to its own process).
  bool local_first = false;
};

struct TempBuffer {
  TypeId type = TypeId::kRecv;
  std::int64_t count = 0;
};

class Schedule {
 public:
  Schedule() = default;
  // A schedule naming `views` views.
  explicit Schedule(std::size_t views) : views_(views) {}
  static Slot view_slot(std::size_t view) noexcept { return static_cast<Slot>(2 + view); }

  // A temporary buffer of `count` elements of `type`; returns its slot.
  Slot add_temp(TypeId type, std::int64_t count) {
    temps_.push_back({type, count});
    return static_cast<Slot>(first_temp() + temps_.size() - 1);
  }
  // Starts a new round: the calls below add to it. A round nothing is added to is not kept
  // (running an empty round costs a rank time for nothing).
  Schedule& next_round() {
    round_opened_ = true;
    return *this;
  }
  Schedule& send(int peer, Block block) {
    current().sends.push_back({peer, block});
    return counted();
  }
  Schedule& receive(int peer, Block block) {
    current().receives.push_back({peer, block});
    return counted();
  }
  // Marks the current round Round::one_by_one.
  Schedule& one_by_one() {
    current().one_by_one = true;
    return *this;
  }
  // Marks the current round Round::local_first.
  Schedule& local_first() {
    current().local_first = true;
    return *this;
  }
  Schedule& copy(Block from, Block to) { return local({LocalKind::kCopy, from, to}); }
  Schedule& reduce_left(Block from, Block to) { return local({LocalKind::kReduceLeft, from, to}); }
  Schedule& reduce_right(Block from, Block to) {
    return local({LocalKind::kReduceRight, from, to});
  }

  const std::vector<Round>& rounds() const noexcept { return rounds_; }
  const std::vector<TempBuffer>& temps() const noexcept { return temps_; }
  // The most transfers any round posts at once, and whether some step reduces with the
  // incoming block on the right (which needs to know if the operation commutes).
  std::size_t max_round_transfers() const noexcept { return max_round_transfers_; }
  bool reduces_right() const noexcept { return reduces_right_; }
  std::size_t views() const noexcept { return views_; }
  bool is_view(Slot slot) const noexcept { return slot >= 2 && slot < first_temp(); }
  bool is_temp(Slot slot) const noexcept { return slot >= first_temp(); }
  std::size_t temp_index(Slot slot) const noexcept { return slot - first_temp(); }
  // Input, output, views and temporaries.
  std::size_t slot_count() const noexcept { return first_temp() + temps_.size(); }

 private:
  Schedule& local(const LocalStep& step) {
    current().local.push_back(step);
    reduces_right_ = reduces_right_ || step.kind == LocalKind::kReduceRight;
    return *this;
  }
  std::size_t first_temp() const noexcept { return 2 + views_; }
  Schedule& counted() {
    const Round& round = rounds_.back();
    max_round_transfers_ =
        std::max(max_round_transfers_, round.receives.size() + round.sends.size());
    return *this;
  }
  Round& current() {
    if (rounds_.empty() || round_opened_) rounds_.emplace_back();
    round_opened_ = false;
    return rounds_.back();
  }

  std::vector<Round> rounds_;
  std::vector<TempBuffer> temps_;
  std::size_t views_ = 0;
  std::size_t max_round_transfers_ = 0;
  bool reduces_right_ = false;
  bool round_opened_ = false;
};

}  // namespace scomm::coll
