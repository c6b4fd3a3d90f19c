// The MPI side of the library context: the base communicators that carry every scomm message,
// the tag layout read from MPI_TAG_UB, the context ids this process holds (blocks from
// collective allocation, ids inside them from local derivation), the matching engine and the
// context -> channel table. Created by SCOMM_Init after MPI_Init, destroyed by SCOMM_Finalize
// before MPI_Finalize, after every communicator and request is gone.
#pragma once

#include <mpi.h>

#include <memory>
#include <span>
#include <vector>

#include "scomm/base/block_recycler.hpp"
#include "scomm/comm/comm.hpp"
#include "scomm/context/allocation.hpp"
#include "scomm/context/base_placement.hpp"
#include "scomm/context/context_pool.hpp"
#include "scomm/context/context_table.hpp"
#include "scomm/context/derivation.hpp"
#include "scomm/context/held_ids.hpp"
#include "scomm/context/tag_layout.hpp"
#include "scomm/p2p/channel.hpp"
#include "scomm/p2p/matching_engine.hpp"

namespace scomm::comm {

struct RuntimeOptions {
  int base_count = 0;  // a power of two; 0: enough base communicators for kDefaultIds ids
  int derive_bits = context::kDefaultDeriveBits;
  context::Algorithm algorithm = context::Algorithm::kHighest;
  context::Storage storage = context::Storage::kRadix;
  p2p::DetachLimits detached;  // collective sends scomm copies and lets go of

  static constexpr context::ContextId kDefaultIds = context::ContextId{1} << 20;
  // SCOMM_BASE_COMMS, SCOMM_DERIVE_BITS, SCOMM_CONTEXT_ALGORITHM, SCOMM_CONTEXT_STORAGE,
  // SCOMM_DETACHED_SENDS.
  static RuntimeOptions from_environment();
};

class Runtime final : public p2p::ChannelOwner {
 public:
  // Duplicates `world` for each base communicator. Throws Error(kNotSupported) when MPI_TAG_UB
  // is too small, Error(kArg) for bad options, MPI's error where it cannot duplicate `world`.
  Runtime(MPI_Comm world, const RuntimeOptions& options);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  const context::TagLayout& layout() const noexcept { return layout_; }
  const RuntimeOptions& options() const noexcept { return options_; }
  MPI_Comm base(int index) const noexcept { return bases_[static_cast<std::size_t>(index)]; }
  int base_count() const noexcept { return static_cast<int>(bases_.size()); }
  MPI_Comm world() const noexcept { return bases_.front(); }
  // The communicator the runtime was made from (MPI_COMM_WORLD), which scomm never frees and
  // sends nothing on: the parent of the MPI communicators it makes (mpi_interop.hpp).
  MPI_Comm origin() const noexcept { return origin_; }
  context::ContextId id_capacity() const noexcept { return id_capacity_; }

  // Blocks of 2^derive_bits ids, allocated collectively.
  const context::ContextPool& blocks() const noexcept { return blocks_; }
  // The pool for an allocation about to start: the blocks of communicators freed since the last
  // one go back to it first (settle_freed_blocks).
  context::ContextPool& blocks_for_allocation() {
    if (!emptied_.empty()) settle_freed_blocks();
    return blocks_;
  }
  const context::HeldIds& held() const noexcept { return held_; }
  p2p::MatchingEngine& engine() noexcept { return *engine_; }

  // After a collective allocation settled on `block`: a member opens its communicator in it
  // (open), a process that gets no communicator gives the block back here.
  void decline_block(context::ContextId block) noexcept;
  // Before local creation takes the blocks [first, first + count) one by one: the tables of
  // live ids and channels make room for them now, at the run's collective allocation.
  void prepare_blocks(context::ContextId first, context::ContextId count);
  // The derivation of a communicator that gets a whole block from collective allocation.
  context::Derivation block_derivation(context::ContextId block) const noexcept {
    return {held_.first_of_block(block), static_cast<std::uint16_t>(options_.derive_bits), 0};
  }
  // A communicator on the ids `derivation` owns, holding its own id until its channel dies.
  // Throws Error(kContext) when one of those ids is still held here: separation cannot be proved
  // (members made their local creations on a communicator in different orders).
  Comm open(const group::MapPtr& map, group::Rank rank, context::Derivation derivation);
  // The same with the box of `terms` as its map, built in the channel.
  Comm open(const group::Progression& terms, group::Rank rank, context::Derivation derivation);
  void dispose(p2p::Channel* channel) noexcept override;
  // At SCOMM_Finalize: every arrived message of the base communicators, nobody's now, leaves MPI
  // with the engine's orphans. MPICH keeps a freed communicator's unexpected messages and gives
  // them to the next one of its context id, which the next SCOMM_Init's bases may get. Not in the
  // destructor, which also runs at exit after MPI_Abort, where MPI may not be called.
  void take_unreceived_messages() noexcept { engine_->take_all_arrived(); }

 private:
  void make_bases(MPI_Comm world);
  // Holds the derivation's own id; Error(kContext) when one of its ids is held here already.
  void claim(context::Derivation derivation);
  p2p::Route route(context::ContextId id) const noexcept;
  // A block whose last communicator here was freed stays held until the next allocation starts
  // here, and only then goes back to the pool, after the messages that have arrived for its ids
  // (sent on freed communicators, never received) are taken off MPI and dropped: none of them
  // reaches a later communicator that gets the block. Until then no allocation, pending or new,
  // can hand the block out, so every message for it is such a message. Not later: an allocation
  // that left a freed block held here could fail where others' holdings cover the rest, which no
  // process can tell alone. Taking the messages costs an MPI_Improbe (some 40-50 ns) per base of
  // the freed ids and per message found there.
  void settle_freed_blocks();
  void remember_freed(context::ContextId id, bool block_emptied) noexcept;
  void drop_messages_of_freed(std::span<const context::ContextId> emptied,
                              std::span<const context::ContextId> others);
  template <typename Map>  // a group::MapPtr or a group::Progression
  Comm open_on(const Map& map, group::Rank rank, context::Derivation derivation);

  static constexpr std::size_t kRecycledChannels = 1024;
  // First, so that it outlives every channel it recycles.
  base::BlockRecycler channel_blocks_{sizeof(p2p::Channel), kRecycledChannels};
  RuntimeOptions options_;
  MPI_Comm origin_;
  context::TagLayout layout_;
  context::BasePlacement placement_;
  std::vector<MPI_Comm> bases_;
  context::ContextId id_capacity_;
  context::ContextPool blocks_;
  context::HeldIds held_;
  // Ids of communicators freed here since the last settlement whose free left their block
  // without held ids, and ids freed while their block still held another one.
  std::vector<context::ContextId> emptied_;
  std::vector<context::ContextId> freed_in_held_blocks_;
  std::unique_ptr<p2p::MatchingEngine> engine_;
};

}  // namespace scomm::comm
