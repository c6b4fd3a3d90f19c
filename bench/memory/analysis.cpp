#include "analysis.hpp"

#include <malloc.h>

#include <algorithm>
#include <map>
#include <set>

#include "../baselines.hpp"
#include "scomm/context/context_table_factory.hpp"

namespace scomm::bench {
namespace {

constexpr context::Storage kStorages[] = {context::Storage::kGrowableArray,
                                          context::Storage::kFixedArray, context::Storage::kTree,
                                          context::Storage::kRadix};

// The channel's message queues, made on first use: measured on the heap, as their deques
// allocate their first blocks when constructed.
std::size_t measure_queues() {
  const p2p::Route route{0, MPI_COMM_NULL, 0, (1 << 15) - 1};
  p2p::Channel channel(group::Progression{0, 2, 1}, 0, route, nullptr);
  const std::size_t before = heap_in_use();
  channel.unexpected();
  return heap_in_use() - before;
}

// Every storage kind filled with the same live ids as the rank's table.
std::vector<TableSize> table_sizes(RankState& state) {
  std::vector<TableSize> sizes;
  for (context::Storage storage : kStorages) {
    auto table = context::make_context_table<p2p::Channel>(storage, state.options().id_capacity,
                                                           state.options().derive_bits);
    for (int i = 0; i < static_cast<int>(state.comms().size()); ++i) {
      p2p::Channel& channel = state.comm(i).channel();
      table->insert(channel.context(), &channel);
    }
    sizes.push_back({std::string(context::storage_name(storage)), table->bytes()});
  }
  return sizes;
}

std::vector<Rank> members_of(const group::RankMap& map) {
  std::vector<Rank> members(static_cast<std::size_t>(map.size()));
  map.decode(0, members);
  return members;
}

void add_published(PublishedSizes& sizes, const group::RankMap& map, Rank world) {
  const std::vector<Rank> members = members_of(map);
  const Baselines b = compute_baselines(members, world);
  sizes.mpich += b.mpich;
  sizes.open_mpi_sparse += b.open_mpi;
  sizes.plain_array += b.plain_array;
  sizes.open_mpi_dense += static_cast<double>(sizeof(void*) * members.size());
}

// Accumulates maps by kind, counting each shared map object once.
class MapTally {
 public:
  MapTally(RankAnalysis& out, Rank world) : out_(out), world_(world) {}

  void add(const std::string& kind, bool is_group, const group::MapPtr& map) {
    KindSummary& k = summary(kind, is_group);
    const bool fresh = seen_.insert(map.get()).second;
    const std::size_t bytes = fresh ? map->bytes() + map->shared_bytes() : 0;
    const bool regular = map->as_box().has_value();
    if (k.count == 0 || map->size() < k.members_min) k.members_min = map->size();
    k.members_max = std::max(k.members_max, map->size());
    ++k.count;
    k.shared_maps += fresh ? 0 : 1;
    k.map_bytes_total += bytes;
    k.map_bytes_max = std::max(k.map_bytes_max, bytes);
    k.all_regular = k.all_regular && regular;
    const std::string name(map->name());
    if (std::find(k.representations.begin(), k.representations.end(), name) ==
        k.representations.end())
      k.representations.push_back(name);
    if (regular) out_.max_regular_map_bytes = std::max(out_.max_regular_map_bytes, bytes);
    out_.parts.maps += bytes;
    if (fresh) add_published(out_.published, *map, world_);
  }

 private:
  KindSummary& summary(const std::string& kind, bool is_group) {
    const auto [it, added] = index_.try_emplace(kind, out_.kinds.size());
    if (added) {
      KindSummary fresh;
      fresh.kind = kind;
      fresh.is_group = is_group;
      out_.kinds.push_back(std::move(fresh));
    }
    return out_.kinds[it->second];
  }

  RankAnalysis& out_;
  Rank world_;
  std::set<const group::RankMap*> seen_;
  std::map<std::string, std::size_t> index_;
};

// Virtual topologies (Cartesian grids) are small heap objects of vectors: measured by building a
// copy of each. Each communicator's extras, where its topology hangs, count here too.
std::size_t grid_bytes(RankState& state) {
  std::set<const group::VirtualTopology*> seen;
  std::size_t bytes = 0;
  for (int i = 0; i < static_cast<int>(state.comms().size()); ++i) {
    bytes += state.comm(i).extras_bytes();
    const group::VirtualTopology* topology = state.comm(i).topology();
    if (topology == nullptr || !seen.insert(topology).second) continue;
    const std::size_t before = heap_in_use();
    const auto copy = std::make_shared<const group::VirtualTopology>(*topology);
    bytes += heap_in_use() - before;
  }
  return bytes;
}

}  // namespace

// Chunks in main-arena use plus mmapped ones (large arrays: the held-id bits).
std::size_t heap_in_use() {
  const struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

ObjectSizes object_sizes() {
  return {sizeof(p2p::Channel),    sizeof(comm::Comm),
          sizeof(capi::CommEntry), capi::HandleTable<capi::CommEntry>::slot_bytes(),
          sizeof(comm::Runtime),   sizeof(capi::Context),
          sizeof(group::Box),      measure_queues()};
}

RankAnalysis analyze(RankState& state, std::size_t heap_measured) {
  const ObjectSizes sizes = object_sizes();
  RankAnalysis out;
  out.self = state.self();
  out.communicators = static_cast<int>(state.comms().size());
  out.groups = static_cast<int>(state.groups().size());
  out.heap_measured = heap_measured - state.bookkeeping_bytes();
  out.queues_when_used = sizes.queues;
  MapTally tally(out, state.world_size());
  for (int i = 0; i < out.communicators; ++i) {
    const HeldComm& held = state.comms()[static_cast<std::size_t>(i)];
    if (held.map) tally.add(*held.kind, false, held.map);
  }
  for (const HeldGroup& g : state.groups()) tally.add(*g.kind, true, g.group.map_ptr());
  const auto n = static_cast<std::size_t>(out.communicators);
  out.parts.world_run_table = state.world_run_table_bytes();
  out.parts.context_table = state.table().bytes() - out.parts.world_run_table;
  out.parts.held_ids = state.held().bytes();
  out.parts.block_pool = state.pool().bytes();
  out.parts.channels = n * sizes.channel;
  out.parts.handles = n * sizes.handle_slot + static_cast<std::size_t>(out.groups) *
                                                  capi::HandleTable<group::Group>::slot_bytes();
  out.parts.grids = grid_bytes(state);
  out.parts.process = sizes.runtime + sizes.capi_context;
  out.tables = table_sizes(state);
  return out;
}

}  // namespace scomm::bench
