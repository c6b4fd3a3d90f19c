// A channel is what point-to-point needs of a communicator: its rank map, the caller's rank, its
// context and the base MPI communicator with the context's tag prefix. Every message of the
// channel travels on `base` with MPI tag `tag_prefix | user tag`; the context is unique among
// the channels live at each member, so an MPI receive with that tag matches only this channel's
// messages, even with MPI_ANY_SOURCE.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <bitset>
#include <cassert>
#include <deque>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "scomm/context/context_id.hpp"
#include "scomm/context/tag_layout.hpp"
#include "scomm/group/rank_map.hpp"
#include "scomm/group/regular_map.hpp"
#include "scomm/p2p/probed_message.hpp"

namespace scomm::p2p {

class EngineReceive;
class Channel;

// Called when a channel dies (the last communicator handle or request using it is gone), so the
// context is released only after every operation on it has completed. Destroys the channel and
// frees its memory.
class ChannelOwner {
 public:
  virtual void dispose(Channel* channel) noexcept = 0;

 protected:
  ~ChannelOwner() = default;
};

// Shared ownership of a channel: communicators, their copies and receive requests hold one. The
// count is a plain integer, as scomm's objects are used by one thread at a time (as MPI handles
// are under MPI_THREAD_FUNNELED); std::shared_ptr counts atomically as soon as MPI has started a
// thread, which cost more than the rest of a local communicator creation.
class ChannelPtr {
 public:
  ChannelPtr() noexcept = default;
  ChannelPtr(std::nullptr_t) noexcept {}  // NOLINT: converts like a null pointer
  // Shares `channel` (a live channel, or one just built with no owner yet).
  explicit ChannelPtr(Channel* channel) noexcept;
  ChannelPtr(const ChannelPtr& other) noexcept : ChannelPtr(other.channel_) {}
  ChannelPtr(ChannelPtr&& other) noexcept : channel_(std::exchange(other.channel_, nullptr)) {}
  ChannelPtr& operator=(ChannelPtr other) noexcept {
    std::swap(channel_, other.channel_);
    return *this;
  }
  // Inline as every message's request drops one; the last reference's disposal is not.
  ~ChannelPtr();

  Channel* get() const noexcept { return channel_; }
  Channel& operator*() const noexcept { return *channel_; }
  Channel* operator->() const noexcept { return channel_; }
  explicit operator bool() const noexcept { return channel_ != nullptr; }
  friend bool operator==(const ChannelPtr&, const ChannelPtr&) = default;

 private:
  [[gnu::noinline]] static void dispose(Channel* channel) noexcept;

  Channel* channel_ = nullptr;
};

// Where a context's messages travel: its base communicator, and the tag prefix and user-tag mask
// that put the context into the MPI tag.
struct Route {
  context::ContextId context;
  MPI_Comm base;
  int tag_prefix;
  int user_tag_mask;
};

class Channel {
 public:
  // Regular maps are kept as their box (no map object is built unless someone asks for it, and
  // lookups are not virtual calls); others as the shared map.
  // The box of a progression is built in place: a channel is made per local creation, and
  // each copy of a box through a temporary costs that creation some 15 instructions.
  Channel(const group::MapPtr& map, group::Rank rank, const Route& route, ChannelOwner* owner)
      : map_(map), box_(map->as_box()), rank_(rank), route_(route), owner_(owner) {}
  Channel(const group::Progression& terms, group::Rank rank, const Route& route,
          ChannelOwner* owner)
      : box_(std::in_place, terms), rank_(rank), route_(route), owner_(owner) {}
  // A view of `parent` over a subgroup (create_group talks among its members on the parent's
  // context): same context and message queues, the subgroup's ranks.
  Channel(const Channel& parent, const group::MapPtr& map, group::Rank rank)
      : Channel(map, rank, parent.route_, nullptr) {
    queues_ = parent.queues();
  }
  ~Channel() = default;
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  // Base rank of communicator rank r, and back (kUndefined for a non-member).
  group::Rank select(group::Rank r) const noexcept {
    return box_ ? box_->value(r) : map_->select(r);
  }
  group::Rank rank_of(group::Rank base_rank) const noexcept {
    return box_ ? box_->index_of(base_rank) : map_->rank_of(base_rank);
  }
  const std::optional<group::Box>& box() const noexcept { return box_; }
  const group::RankMap& map() const { return *map_ptr(); }
  const group::MapPtr& map_ptr() const {
    if (!map_) map_ = group::make_regular_map(*box_);
    return map_;
  }
  group::Rank rank() const noexcept { return rank_; }
  group::Rank size() const noexcept { return box_ ? box_->size() : map_->size(); }
  context::ContextId context() const noexcept { return route_.context; }
  MPI_Comm base() const noexcept { return route_.base; }
  int mpi_tag(int tag) const noexcept { return route_.tag_prefix | tag; }
  int user_tag(int mpi_tag) const noexcept { return mpi_tag & route_.user_tag_mask; }
  // The largest user tag (SCOMM_Tag_ub): the internal tags sit above it.
  int tag_ub() const noexcept { return route_.user_tag_mask - context::TagLayout::kInternalTags; }
  // Whether a receive for `tag` (or MPI_ANY_TAG, which never matches scomm's internal tags)
  // matches a message with this MPI tag.
  bool tag_matches(int tag, int mpi_tag) const noexcept {
    const int t = user_tag(mpi_tag);
    return tag == MPI_ANY_TAG ? t <= tag_ub() : tag == t;
  }

  // Collectives on a channel start in the same order at every member (MPI's rule), so this
  // sequence number agrees across members and tells concurrent internal operations apart.
  unsigned next_collective() noexcept { return collectives_++; }

  // Internal tags held by collectives in flight here: two at once on one tag could match each
  // other's messages. False when `tag` is held already, or a collective queued for it.
  bool hold_internal_tag(int tag) {
    if (!internal_tags_) internal_tags_ = std::make_unique<InternalTags>();
    auto held = internal_tags_->held[internal_tag_index(tag)];  // unchecked: the index is in range
    if (held || internal_tags_->queued(tag)) return false;
    held = true;
    return true;
  }
  void release_internal_tag(int tag) noexcept {
    internal_tags_->held[internal_tag_index(tag)] = false;
  }
  // A collective that found its tag held waits in turn: those that found one tag held take it in
  // the order they queued for it (their order at every member), so none takes the messages of
  // another started before it (whose tag a slower member still holds).
  void queue_for_internal_tag(int tag, const void* waiter) {
    internal_tags_->waiting.emplace_back(tag, waiter);
  }
  // Holds `tag` for queued `waiter` when it is free and `waiter` the first queued for it.
  bool hold_internal_tag_in_turn(int tag, const void* waiter) noexcept {
    auto& waiting = internal_tags_->waiting;
    const auto first = std::ranges::find(waiting, tag, &std::pair<int, const void*>::first);
    auto held = internal_tags_->held[internal_tag_index(tag)];
    if (held || first == waiting.end() || first->second != waiter) return false;
    waiting.erase(first);
    held = true;
    return true;
  }
  // Withdraws queued `waiter` (a collective abandoned before it held its tag).
  void leave_internal_tag_queue(const void* waiter) noexcept {
    std::erase_if(internal_tags_->waiting, [waiter](const auto& w) { return w.second == waiter; });
  }

  // Messages the engine took before any receive asked for them, in arrival order.
  std::deque<ProbedMessage>& unexpected() { return queues()->unexpected; }
  bool has_unexpected() const noexcept { return queues_ && !queues_->unexpected.empty(); }
  // Receives waiting for the engine, in the order they were posted.
  std::deque<EngineReceive*>& posted() { return queues()->posted; }
  bool has_posted() const noexcept { return queues_ && !queues_->posted.empty(); }

 private:
  friend class ChannelPtr;

  mutable group::MapPtr map_;
  std::optional<group::Box> box_;
  group::Rank rank_;
  Route route_;
  ChannelOwner* owner_;  // disposes of the channel; none: the channel was made with new
  int references_ = 0;
  unsigned collectives_ = 0;
  struct Queues {
    std::deque<ProbedMessage> unexpected;
    std::deque<EngineReceive*> posted;
    Queues() = default;
    Queues(const Queues&) = delete;
    Queues& operator=(const Queues&) = delete;
    // Receives aside and drops the messages taken off MPI that no receive took: MPI would keep
    // them, and a sender waiting for a rendezvous, forever.
    ~Queues();
  };
  // Made on first use: most communicators never need them, and a million live ones would pay
  // for two empty deques each.
  const std::shared_ptr<Queues>& queues() const {
    if (!queues_) queues_ = std::make_shared<Queues>();
    return queues_;
  }
  mutable std::shared_ptr<Queues> queues_;
  // Made on the first collective (some 56 bytes), not with the queues (two deques: over 1 KiB).
  struct InternalTags {
    std::bitset<context::TagLayout::kInternalTags> held;
    std::vector<std::pair<int, const void*>> waiting;  // tag, collective: in the order they came
    bool queued(int tag) const noexcept {
      return !waiting.empty() &&
             std::ranges::find(waiting, tag, &std::pair<int, const void*>::first) != waiting.end();
    }
  };
  std::unique_ptr<InternalTags> internal_tags_;
  std::size_t internal_tag_index(int tag) const noexcept {
    const auto index = static_cast<std::size_t>(tag - tag_ub() - 1);
    assert(index < context::TagLayout::kInternalTags);
    return index;
  }
};

inline ChannelPtr::ChannelPtr(Channel* channel) noexcept : channel_(channel) {
  if (channel_ != nullptr) ++channel_->references_;
}

inline ChannelPtr::~ChannelPtr() {
  if (channel_ != nullptr && --channel_->references_ == 0) dispose(channel_);
}

}  // namespace scomm::p2p
