#include "rank_state.hpp"

#include <numeric>
#include <stdexcept>

#include "scomm/comm/cartesian.hpp"
#include "scomm/comm/create.hpp"
#include "scomm/context/allocation.hpp"
#include "scomm/context/context_table_factory.hpp"
#include "scomm/context/derivation.hpp"
#include "scomm/group/builder.hpp"

namespace scomm::bench {
namespace {

// Every member offers the same values (they all made the same creations), so one member's
// reduction is the collective's result.
class OneMemberReducer final : public context::Reducer {
 public:
  void start_max(std::span<std::int64_t>) override {}
  void start_and(std::span<std::uint64_t>) override {}
  bool test() override { return true; }
};

}  // namespace

RankState::RankState(Rank world_size, Rank self, const RankStateOptions& options)
    : options_(options),
      world_size_(world_size),
      self_(self),
      pool_(options.id_capacity >> options.derive_bits),
      held_(options.id_capacity, options.derive_bits),
      table_(context::make_context_table<p2p::Channel>(options.storage, options.id_capacity,
                                                       options.derive_bits)) {
  // comm::from_mpi(MPI_COMM_WORLD): the translated ranks, built by the strategy.
  std::vector<Rank> ranks(static_cast<std::size_t>(world_size));
  std::iota(ranks.begin(), ranks.end(), 0);
  open_collective(group::build_map(ranks, options.policy), self, "world");
  reserve_world_run();
}

// SCOMM_Init's world reserves its first run of blocks with its own, and the runtime makes room
// for their ids (comm::Runtime::prepare_blocks).
void RankState::reserve_world_run() {
  const context::ContextId count = comm::world_first_run(pool_, options_.derive_bits);
  if (count == 0) return;
  OneMemberReducer reducer;
  const context::IdRun run = context::allocate_run(options_.algorithm, pool_, reducer, count);
  const auto [first_id, id_count] = held_.prepare_blocks(run.first, run.count);
  const std::size_t before = table_->bytes();
  table_->prepare(first_id, id_count);
  world_run_table_bytes_ = table_->bytes() - before;
}

RankState::~RankState() = default;

comm::Comm& RankState::comm(int index) {
  return handles_.find(comms_.at(static_cast<std::size_t>(index)).handle)->comm;
}

template <typename Map>
int RankState::open(const Map& map, Rank rank, context::Derivation derivation,
                    const std::string& kind, group::MapPtr kept) {
  if (!held_.hold_unless_any_held(derivation.first, derivation.span()))
    throw Error(ErrorClass::kContext, kind + ": cannot prove message separation");
  // The route's MPI fields do not change the channel's size; no MPI call is made.
  const p2p::Route route{derivation.first, MPI_COMM_NULL, 0, 0};
  auto* channel = new p2p::Channel(map, rank, route, nullptr);
  table_->insert(channel->context(), channel);
  const Rank members = channel->size();
  const int handle =
      handles_.emplace(comm::Comm(p2p::ChannelPtr(channel), derivation), capi::ErrhandlerRef());
  comms_.push_back({intern(kind), handle, std::move(kept), members});
  return static_cast<int>(comms_.size()) - 1;
}

const std::string* RankState::intern(const std::string& kind) {
  return &*kinds_.insert(kind).first;
}

std::size_t RankState::bookkeeping_bytes() const noexcept {
  std::size_t bytes = comms_.capacity() * sizeof(HeldComm) + groups_.capacity() * sizeof(HeldGroup);
  for (const std::string& kind : kinds_)
    bytes += 3 * sizeof(void*) + sizeof(kind) + kind.capacity();
  return bytes;
}

context::Derivation RankState::allocate_block() {
  OneMemberReducer reducer;
  const context::ContextId block = context::allocate(options_.algorithm, pool_, reducer);
  return {held_.first_of_block(block), static_cast<std::uint16_t>(options_.derive_bits), 0};
}

// CollectiveCreation::settle: a fresh block, the channel keeping the map object.
int RankState::open_collective(const group::MapPtr& map, Rank rank, const std::string& kind) {
  if (rank == group::kUndefined) return -1;
  return open(map, rank, allocate_block(), kind, map);
}

int RankState::split(int parent, std::span<const int> parent_ranks, const std::string& kind) {
  const p2p::Channel& channel = comm(parent).channel();
  const group::Group child =
      group::incl(group::Group(channel.map_ptr(), channel.select(channel.rank())), parent_ranks,
                  options_.policy);
  return open_collective(child.map_ptr(), child.rank(), kind);
}

int RankState::split_range(int parent, int first, int count, const std::string& kind) {
  const p2p::Channel& channel = comm(parent).channel();
  const Rank rank = channel.rank() - first;
  if (rank < 0 || rank >= count) return -1;
  return open_collective(comm::range_map(channel, first, count, 1, options_.policy), rank, kind);
}

// DupCreation: the parent's map object, shared.
int RankState::dup(int parent, const std::string& kind) {
  const comm::Comm& from = comm(parent);
  auto topology = from.shared_topology();  // before opening: the handle table may move `from`
  const int index = open_collective(from.channel().map_ptr(), from.rank(), kind);
  comm(index).set_topology(std::move(topology));
  return index;
}

int RankState::cart_create(int parent, group::CartGrid grid, const std::string& kind) {
  const comm::Comm& from = comm(parent);
  const group::RangeTriplet first_ranks{0, grid.size() - 1, 1};
  const group::Group child =
      group::range_incl(from.group(), std::span(&first_ranks, 1), options_.policy);
  const int index = open_collective(child.map_ptr(), child.rank(), kind);
  if (index >= 0)
    comm(index).set_topology(std::make_shared<const group::VirtualTopology>(std::move(grid)));
  return index;
}

// comm::cart_sub with a derivation slot left (the library would then take a fresh block
// collectively, which one simulated rank cannot).
int RankState::cart_sub(int cart, const std::vector<bool>& remain, const std::string& kind) {
  comm::Comm& from = comm(cart);
  const group::CartGrid::Sub sub = comm::grid_of(from).sub(from.rank(), remain);
  const auto derived = context::derive_child(from.derivation());
  if (!derived) throw std::runtime_error(kind + ": the grid's derivation slots are used up");
  const group::MapPtr map = group::compose(
      from.channel().map_ptr(), comm::sub_grid_in_parent(sub, options_.policy), options_.policy);
  const int index = open(map, sub.index, derived, kind, map);
  comm(index).set_topology(std::make_shared<const group::VirtualTopology>(
      std::in_place_type<group::CartGrid>, sub.dims, sub.periods));
  return index;
}

void RankState::group_range(int first, int count, int stride, const std::string& kind) {
  const group::RangeTriplet range{first, first + (count - 1) * stride, stride};
  groups_.push_back({intern(kind), group::range_incl(comm(kWorld).group(), std::span(&range, 1),
                                                     options_.policy)});
}

}  // namespace scomm::bench
