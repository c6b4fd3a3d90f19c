// The state one rank holds for its communicators, built from the library's real objects without
// MPI processes: a world of any virtual size, communicators made the way the comm layer makes
// them (the same map builders, composition, block allocation and local derivation), each held as
// a real Channel and Comm in a real handle table, its context in a real context table.
#pragma once

#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "scomm/capi/context.hpp"
#include "scomm/context/context_pool.hpp"
#include "scomm/context/context_table.hpp"
#include "scomm/context/held_ids.hpp"
#include "scomm/group/cart_grid.hpp"
#include "scomm/group/group.hpp"

namespace scomm::bench {

using group::Rank;

// One communicator this rank holds.
struct HeldComm {
  const std::string* kind;  // what made it, e.g. "odd/even split of world" (the report groups
                            // by it); interned, so the analyzer's own records stay small
  int handle = 0;           // in the handle table
  group::MapPtr map;  // the map object its channel keeps; null when the channel keeps a box only
  Rank members = 0;
};

// A group this rank holds without a communicator (MPI_Group_*): only its map costs memory.
struct HeldGroup {
  const std::string* kind;
  group::Group group;
};

struct RankStateOptions {
  context::ContextId id_capacity = comm::RuntimeOptions::kDefaultIds;
  int derive_bits = comm::RuntimeOptions{}.derive_bits;
  context::Algorithm algorithm = comm::RuntimeOptions{}.algorithm;
  context::Storage storage = comm::RuntimeOptions{}.storage;
  group::MapPolicy policy{};
};

class RankState {
 public:
  // World rank `self` of a world of `world_size` processes, holding SCOMM_COMM_WORLD (index 0).
  RankState(Rank world_size, Rank self, const RankStateOptions& options = {});
  ~RankState();
  RankState(const RankState&) = delete;
  RankState& operator=(const RankState&) = delete;

  static constexpr int kWorld = 0;  // index of SCOMM_COMM_WORLD in comms()

  // Each returns the index of the new communicator in comms(), or -1 when this rank is no member.
  // MPI_Comm_split that is not blocked: the members of my color, in parent ranks ordered by key
  // (SplitCreation::gathered_membership); also MPI_Comm_create_group with that group.
  int split(int parent, std::span<const int> parent_ranks, const std::string& kind);
  // MPI_Comm_split whose colors are contiguous ranges in rank order (the blocked split).
  int split_range(int parent, int first, int count, const std::string& kind);
  int dup(int parent, const std::string& kind);
  // MPI_Cart_create without reordering, and MPI_Cart_sub (local while the grid has bits left).
  int cart_create(int parent, group::CartGrid grid, const std::string& kind);
  int cart_sub(int cart, const std::vector<bool>& remain, const std::string& kind);
  // A group of world ranks `first, first + stride, ...` (MPI_Group_range_incl on the world).
  void group_range(int first, int count, int stride, const std::string& kind);

  Rank world_size() const noexcept { return world_size_; }
  Rank self() const noexcept { return self_; }
  const std::vector<HeldComm>& comms() const noexcept { return comms_; }
  const std::vector<HeldGroup>& groups() const noexcept { return groups_; }
  comm::Comm& comm(int index);
  const context::HeldIds& held() const noexcept { return held_; }
  const context::ContextPool& pool() const noexcept { return pool_; }
  const context::ContextTable<p2p::Channel>& table() const noexcept { return *table_; }
  // The part of table() SCOMM_Init's world run made room for (paid once per process).
  std::size_t world_run_table_bytes() const noexcept { return world_run_table_bytes_; }
  const RankStateOptions& options() const noexcept { return options_; }
  // Heap the analyzer's own records take (not the rank's state): subtracted from measurements.
  std::size_t bookkeeping_bytes() const noexcept;

 private:
  // Runtime::open: checks the derivation's ids are free here, holds the id, files the channel.
  template <typename Map>
  int open(const Map& map, Rank rank, context::Derivation derivation, const std::string& kind,
           group::MapPtr kept);
  // A collectively allocated block (one member's view of the reduction: all members agree).
  context::Derivation allocate_block();
  void reserve_world_run();
  int open_collective(const group::MapPtr& map, Rank rank, const std::string& kind);
  const std::string* intern(const std::string& kind);

  RankStateOptions options_;
  Rank world_size_, self_;
  context::ContextPool pool_;
  context::HeldIds held_;
  std::unique_ptr<context::ContextTable<p2p::Channel>> table_;
  std::size_t world_run_table_bytes_ = 0;
  capi::HandleTable<capi::CommEntry> handles_{capi::Context::kFirstCommHandle, capi::kCommHandles};
  std::vector<HeldComm> comms_;
  std::vector<HeldGroup> groups_;
  std::set<std::string> kinds_;
};

}  // namespace scomm::bench
