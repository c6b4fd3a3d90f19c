// A scomm communicator: a compact rank map, a context, and the base MPI communicator that
// carries its messages (together, its p2p channel), plus what local creation derives children
// from. Copies share the channel; the context is released when the last copy and the last
// request on it are gone.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "scomm/base/out_of_line_delete.hpp"
#include "scomm/context/derivation.hpp"
#include "scomm/group/group.hpp"
#include "scomm/group/virtual_topology.hpp"
#include "scomm/p2p/channel.hpp"
#include "scomm/p2p/held_internal_tags.hpp"

namespace scomm::comm {

class Runtime;

// A communicator's MPI twin (Comm::native), freed when the communicator and every native
// collective started on it are gone: MPI lets a communicator be freed under a pending
// nonblocking collective, but Open MPI 4.1's libnbc then crashes in that collective's progress.
class NativeComm {
 public:
  explicit NativeComm(MPI_Comm comm) noexcept : comm_(comm) {}
  ~NativeComm() { MPI_Comm_free(&comm_); }
  NativeComm(const NativeComm&) = delete;
  NativeComm& operator=(const NativeComm&) = delete;
  MPI_Comm get() const noexcept { return comm_; }

 private:
  MPI_Comm comm_;
};

// The blocks a communicator's local children take whole once its own derivation slots are used
// up (next_local_context in create.hpp): a run of consecutive blocks from one collective
// allocation, taken one per child. A taken block is its child's own, as if collectively
// allocated for it; the blocks not yet taken stay taken in the pool until this goes.
class ReservedBlocks {
 public:
  // The run's blocks go to local children one by one; the runtime makes room for them now.
  ReservedBlocks(Runtime& runtime, context::ContextId first, context::ContextId count);
  ~ReservedBlocks();
  ReservedBlocks(const ReservedBlocks&) = delete;
  ReservedBlocks& operator=(const ReservedBlocks&) = delete;
  // The run's next block, taken; nullopt when none is left.
  std::optional<context::ContextId> take() noexcept {
    if (next_ == end_) return std::nullopt;
    return next_++;
  }
  int left() const noexcept { return static_cast<int>(end_ - next_); }

 private:
  Runtime& runtime_;
  context::ContextId next_, end_;
};

class Comm {
 public:
  Comm(p2p::ChannelPtr channel, context::Derivation derivation)
      : channel_(std::move(channel)), derivation_(derivation) {}

  p2p::Channel& channel() const noexcept { return *channel_; }
  const p2p::ChannelPtr& channel_ptr() const noexcept { return channel_; }
  group::Rank rank() const noexcept { return channel_->rank(); }
  group::Rank size() const noexcept { return channel_->size(); }
  context::ContextId context() const noexcept { return channel_->context(); }
  // The group of the communicator, over base (world) ranks.
  group::Group group() const { return group::Group(channel_->map_ptr(), channel_->select(rank())); }
  // The derivation slots local creation takes first (derivation.hpp).
  context::Derivation& derivation() noexcept { return derivation_; }
  // The next block of the run reserved for its further local children, taken; nullopt when
  // there is none (left).
  std::optional<context::ContextId> take_reserved_block() noexcept {
    return extras_ && extras_->reserved ? extras_->reserved->take() : std::nullopt;
  }
  // Lets the reserved run go (its untaken blocks return to the pool).
  void drop_reserved_blocks() noexcept {
    if (extras_) extras_->reserved.reset();
  }
  // Local creation on this communicator takes whole blocks of [first, first + count) from now
  // on; the run reserved before, if any, is let go.
  void reserve_blocks(Runtime& runtime, context::ContextId first, context::ContextId count) {
    extras().reserved.emplace(runtime, first, count);
    extras_->last_run_length = count;
  }
  // How many more local creations on this communicator need no communication.
  int local_slots_left() const noexcept {
    return derivation_.slots_left() +
           (extras_ && extras_->reserved ? extras_->reserved->left() : 0);
  }
  // How many blocks its last run of reserved blocks had (0 before the first): the next is longer.
  context::ContextId last_run_length() const noexcept {
    return extras_ ? extras_->last_run_length : 0;
  }

  // The virtual topology (null for none): kept by dup, not by split.
  const group::VirtualTopology* topology() const noexcept {
    return extras_ ? extras_->topology.get() : nullptr;
  }
  std::shared_ptr<const group::VirtualTopology> shared_topology() const noexcept {
    return extras_ ? extras_->topology : nullptr;
  }
  void set_topology(std::shared_ptr<const group::VirtualTopology> topology) {
    extras().topology = std::move(topology);
  }
  // The grid of a Cartesian communicator, the graph of a distributed graph one (null for others).
  const group::CartGrid* grid() const noexcept { return topology_as<group::CartGrid>(); }
  const group::DistGraph* graph() const noexcept { return topology_as<group::DistGraph>(); }

  // The MPI communicator with the same members, for the base MPI's own collectives: made on
  // first use (collectively over the members, as SCOMM_Comm_to_MPI), shared by the collectives
  // started on it.
  const std::shared_ptr<NativeComm>& native(Runtime& runtime);
  // Whether that MPI communicator has been made.
  bool has_native() const noexcept { return extras_ && extras_->native; }

  std::string_view name() const noexcept {
    return extras_ ? std::string_view(extras_->name) : std::string_view();
  }
  // Bytes of the extras (a name, a topology, an MPI twin) held beside the communicator, if any.
  std::size_t extras_bytes() const noexcept { return extras_ ? sizeof(Extras) : 0; }
  void set_name(std::string name) { extras().name = std::move(name); }

 private:
  p2p::ChannelPtr channel_;
  context::Derivation derivation_;
  // What few communicators have (a name, a topology, an MPI twin, a run of reserved blocks), made
  // on first use: a communicator is then three words, cheap to move into its handle and to destroy.
  struct Extras {
    Extras() = default;
    Extras(const Extras&) = delete;
    Extras& operator=(const Extras&) = delete;
    std::string name;
    std::shared_ptr<const group::VirtualTopology> topology;
    std::shared_ptr<NativeComm> native;
    std::optional<ReservedBlocks> reserved;
    context::ContextId last_run_length = 0;
  };
  template <typename Kind>
  const Kind* topology_as() const noexcept {
    return extras_ && extras_->topology ? std::get_if<Kind>(extras_->topology.get()) : nullptr;
  }
  Extras& extras() {
    if (!extras_) extras_ = base::make_rare<Extras>();
    return *extras_;
  }
  base::RarePtr<Extras> extras_;
};

// A fresh internal tag for the next collective on `comm` (same at every member), and the tag of
// a collective's sequence number.
int internal_tag(const Runtime& runtime, Comm& comm);
int internal_tag_for(const Runtime& runtime, unsigned sequence);
// The internal tags of `count` collectives in a row on `comm`, from the sequence number `first`
// (taken already) on, the others taken here (internal_tag), held while the result lives: for
// operations in flight that run outside the collective executor, which holds its own (a
// creation, an agreement).
p2p::HeldInternalTags hold_internal_tags(const Runtime& runtime, Comm& comm, unsigned first,
                                         std::size_t count);

}  // namespace scomm::comm
