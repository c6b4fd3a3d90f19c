// dup, split and create: one block allocation over the parent, split's (color, key) exchange
// running beside it.
#include <algorithm>
#include <array>
#include <exception>
#include <numeric>
#include <span>
#include <string>

#include "scomm/base/error.hpp"
#include "scomm/comm/channel_allgather.hpp"
#include "scomm/comm/channel_reducer.hpp"
#include "scomm/comm/create.hpp"
#include "scomm/comm/split_blocked.hpp"

namespace scomm::comm {
namespace {

// The new communicator's map over base ranks and the caller's rank in it.
struct Membership {
  group::MapPtr map;
  group::Rank rank;
  // A duplicate keeps the parent's.
  std::shared_ptr<const group::VirtualTopology> topology = nullptr;
};

// A blocking creation's allocation has priority 0; a nonblocking one's is the parent's context
// and the collective's sequence number on it -- the same at every member, and distinct among
// the creations that can be in flight together at one process.
std::uint64_t priority_of(const Comm& parent, unsigned sequence, bool blocking) {
  if (blocking) return 0;
  return (std::uint64_t{parent.context()} + 1) << 32 | sequence;
}

// A nonblocking one (idup, isplit) is one of the engine's background operations until its
// request is freed: MPI's progress rule lets members wait for their pending creations in
// different orders, so each must advance while its process waits for any other. A failure is
// kept and thrown by every later call, as the background's passes drop it.
class CollectiveCreation : public Creation {
 public:
  // `extra_tags`: internal tags the subclass's own exchanges take (tag(1), ...).
  CollectiveCreation(Runtime& runtime, Comm& parent, bool blocking, std::size_t extra_tags = 0)
      : CollectiveCreation(runtime, parent, blocking, parent.channel().next_collective(),
                           extra_tags) {}
  ~CollectiveCreation() override {
    if (!blocking_) runtime_.engine().remove_background(*this);
  }
  CollectiveCreation(const CollectiveCreation&) = delete;
  CollectiveCreation& operator=(const CollectiveCreation&) = delete;

  bool progress() override {
    if (failure_) std::rethrow_exception(failure_);
    if (done_) return true;
    try {
      if (!exchanged() || !allocation_->progress()) return false;
      settle(allocation_->result());
    } catch (...) {
      failure_ = std::current_exception();
      throw;
    }
    done_ = true;
    // At once, not when the request goes: a collective waiting for one of them may be what the
    // program waits in.
    tags_.release();
    return true;
  }

  std::optional<Comm>& result() override { return result_; }

 protected:
  CollectiveCreation(Runtime& runtime, Comm& parent, bool blocking, unsigned sequence,
                     std::size_t extra_tags)
      : runtime_(runtime),
        parent_(parent.channel_ptr()),
        tags_(hold_internal_tags(runtime, parent, sequence, 1 + extra_tags)),
        reducer_(runtime.engine(), parent.channel_ptr(), tag(0), blocking),
        allocation_(context::start_allocation(runtime.options().algorithm,
                                              runtime.blocks_for_allocation(), reducer_, !blocking,
                                              priority_of(parent, sequence, blocking))),
        blocking_(blocking) {
    if (!blocking_) runtime_.engine().add_background(*this);
  }

  virtual bool exchanged() { return true; }
  int tag(std::size_t index) const noexcept { return tags_[index]; }
  virtual std::optional<Membership> membership() = 0;
  const p2p::Channel& parent() const noexcept { return *parent_; }

 private:
  void settle(context::ContextId block) {
    const auto member = membership();
    if (!member) {
      runtime_.decline_block(block);
      return;
    }
    result_.emplace(runtime_.open(member->map, member->rank, runtime_.block_derivation(block)));
    result_->set_topology(std::move(member->topology));
  }

  Runtime& runtime_;
  p2p::ChannelPtr parent_;
  // The allocation's, then the extra ones: all held before the first message (a creation that
  // cannot hold them all fails having sent nothing).
  p2p::HeldInternalTags tags_;
  ChannelReducer reducer_;
  std::unique_ptr<context::Allocation> allocation_;
  std::optional<Comm> result_;
  bool blocking_;
  bool done_ = false;
  std::exception_ptr failure_;
};

class DupCreation final : public CollectiveCreation {
 public:
  DupCreation(Runtime& runtime, Comm& parent, bool blocking)
      : CollectiveCreation(runtime, parent, blocking), topology_(parent.shared_topology()) {}

 private:
  std::optional<Membership> membership() override {
    return Membership{parent().map_ptr(), parent().rank(), topology_};
  }

  std::shared_ptr<const group::VirtualTopology> topology_;
};

class GroupCreation final : public CollectiveCreation {
 public:
  GroupCreation(Runtime& runtime, Comm& parent, group::Group group, bool blocking)
      : CollectiveCreation(runtime, parent, blocking), group_(std::move(group)) {}

 private:
  std::optional<Membership> membership() override {
    const group::Rank self = parent().select(parent().rank());
    const group::Rank rank = group_.map().rank_of(self);
    if (rank == group::kUndefined) return std::nullopt;
    return Membership{group_.map_ptr(), rank};
  }

  group::Group group_;
};

// Tries the blocked split first (O(1) memory, split_blocked.hpp); otherwise allgathers every
// (color, key).
class SplitCreation final : public CollectiveCreation {
 public:
  SplitCreation(Runtime& runtime, Comm& parent, int color, int key, group::MapPolicy policy,
                bool blocking)
      : CollectiveCreation(runtime, parent, blocking, 3),
        engine_(runtime.engine()),
        channel_(parent.channel_ptr()),
        color_(color),
        key_(key),
        policy_(policy),
        blocked_(runtime.engine(), parent.channel_ptr(), tag(1), tag(2), color, key, blocking),
        blocking_(blocking) {}

 private:
  bool exchanged() override {
    if (!blocked_.test()) return false;
    if (blocked_.blocked()) return true;
    if (!exchange_)
      exchange_.emplace(engine_, channel_, tag(3),
                        std::vector<std::uint64_t>{static_cast<std::uint32_t>(color_),
                                                   static_cast<std::uint32_t>(key_)},
                        blocking_);
    return exchange_->test();
  }

  std::optional<Membership> membership() override {
    if (color_ == MPI_UNDEFINED) return std::nullopt;
    if (!blocked_.blocked()) return gathered_membership();
    const int first = blocked_.first(), count = blocked_.last() - first + 1;
    return Membership{range_map(*channel_, first, count, 1, policy_), channel_->rank() - first};
  }

  // Members of my color in (key, parent rank) order; the parent ranks feed the group layer,
  // which detects regular results and composes them with the parent's map.
  std::optional<Membership> gathered_membership() {
    const auto& words = exchange_->result();
    std::vector<int> ranks;
    for (int r = 0; r < parent().size(); ++r)
      if (static_cast<int>(words[2 * static_cast<std::size_t>(r)]) == color_) ranks.push_back(r);
    std::stable_sort(ranks.begin(), ranks.end(), [&](int a, int b) {
      return static_cast<int>(words[2 * static_cast<std::size_t>(a) + 1]) <
             static_cast<int>(words[2 * static_cast<std::size_t>(b) + 1]);
    });
    const p2p::Channel& parent = *channel_;
    group::Group child =
        group::incl(group::Group(parent.map_ptr(), parent.select(parent.rank())), ranks, policy_);
    return Membership{child.map_ptr(), child.rank()};
  }

  p2p::MatchingEngine& engine_;
  p2p::ChannelPtr channel_;
  int color_, key_;
  group::MapPolicy policy_;
  BlockedSplit blocked_;
  bool blocking_;
  std::optional<ChannelAllgather> exchange_;
};

}  // namespace

int internal_tag_for(const Runtime& runtime, unsigned sequence) {
  return runtime.layout().internal_tag(
      static_cast<int>(sequence % static_cast<unsigned>(context::TagLayout::kSequencedTags)));
}

int internal_tag(const Runtime& runtime, Comm& comm) {
  return internal_tag_for(runtime, comm.channel().next_collective());
}

p2p::HeldInternalTags hold_internal_tags(const Runtime& runtime, Comm& comm, unsigned first,
                                         std::size_t count) {
  std::array<int, p2p::HeldInternalTags::kMost> tags{};
  tags[0] = internal_tag_for(runtime, first);
  for (std::size_t i = 1; i < count; ++i) tags[i] = internal_tag(runtime, comm);
  return p2p::HeldInternalTags(comm.channel_ptr(), std::span(tags.data(), count));
}

std::unique_ptr<Creation> start_dup(Runtime& runtime, Comm& parent, bool blocking) {
  return std::make_unique<DupCreation>(runtime, parent, blocking);
}

std::unique_ptr<Creation> start_split(Runtime& runtime, Comm& parent, int color, int key,
                                      const group::MapPolicy& policy, bool blocking) {
  if (color < 0 && color != MPI_UNDEFINED)
    throw Error(ErrorClass::kArg,
                "split color must be >= 0 or SCOMM_UNDEFINED, got " + std::to_string(color));
  return std::make_unique<SplitCreation>(runtime, parent, color, key, policy, blocking);
}

std::unique_ptr<Creation> start_create(Runtime& runtime, Comm& parent, const group::Group& group,
                                       bool blocking) {
  check_subset(parent.group(), group);
  return std::make_unique<GroupCreation>(runtime, parent, group, blocking);
}

std::optional<Comm> finish(Runtime& runtime, Creation& creation) {
  while (!creation.progress()) runtime.engine().progress_background();
  return std::move(creation.result());
}

}  // namespace scomm::comm
