// create_range and create_from_group: O(1) and without communication while the parent has
// derivation slots left.
#include <algorithm>
#include <string>

#include "scomm/base/error.hpp"
#include "scomm/base/wait_sparing_core.hpp"
#include "scomm/comm/channel_reducer.hpp"
#include "scomm/comm/create.hpp"
#include "scomm/group/builder.hpp"
#include "scomm/group/regular_map.hpp"

namespace scomm::comm {

void check_subset(const group::Group& parent, const group::Group& group) {
  std::vector<group::Rank> members(static_cast<std::size_t>(group.size()));
  group.map().decode(0, members);
  for (group::Rank world : members)
    if (parent.map().rank_of(world) == group::kUndefined)
      throw Error(ErrorClass::kGroup, "the group's process " + std::to_string(world) +
                                          " is not a member of the parent communicator");
}

namespace {

// Stamps the fresh-block allocations' messages apart from create_group's (its tag + 1).
constexpr std::uint64_t kFreshBlockStamp = std::uint64_t{1} << 32;
// A communicator's runs of reserved blocks double, from 2 up to 8,192 (128 Ki ids) and an eighth
// of the blocks: repeated local creation on one communicator pays one allreduce per ever more
// creations (an allreduce over 10^5 ranks, some 100 us, then costs each creation 12 ns), while one
// that creates rarely pins few blocks.
constexpr context::ContextId kLongestRun = 8192;

// How many blocks a communicator's next run asks for, after one of `last` blocks.
context::ContextId next_run_length(const context::ContextPool& pool, context::ContextId last) {
  return std::min(std::max<context::ContextId>(2 * last, 2), longest_run(pool));
}

// One blocking allocation of a run of blocks over the parent, for its further local children.
// Every member reaches it in the same local creation; it has a tag of its own, as members need
// not order their local creations and the parent's collectives alike. It waits for the slowest
// member, which where ranks outnumber cores may be a scheduling slice behind: after 10 us it
// yields its core between polls, or naps where no process waits for that core (once per up to
// 8,192 creations, so a nap's latency hardly counts), and a rank with a core of its own does not
// burn it waiting for ranks that share one. Out of line, so that the creations between runs do
// not carry its frame.
[[gnu::noinline]] void reserve_fresh_blocks(Runtime& runtime, Comm& parent) {
  ChannelReducer reducer(runtime.engine(), parent.channel_ptr(),
                         runtime.layout().internal_tag(context::TagLayout::kFreshBlockTag), false,
                         kFreshBlockStamp);
  const auto allocation = context::start_allocation(
      runtime.options().algorithm, runtime.blocks_for_allocation(), reducer, false, 0,
      runtime.options().derive_bits == 0
          ? 1  // blocks without slots: one per creation, as a collective creation's
          : next_run_length(runtime.blocks(), parent.last_run_length()));
  wait_sparing_core([&] {
    if (allocation->progress()) return true;
    runtime.engine().progress_background();  // as finish() does
    return false;
  });
  parent.reserve_blocks(runtime, allocation->result(), allocation->result_count());
}

// Members of the range (MPI_Group_range_incl's rules), or Error(kRank / kArg). The common case
// inline: a range of stride 1 within the communicator.
int range_length(int size, int first, int last, int stride) {
  if (stride == 1 && 0 <= first && first <= last && last < size) return last - first + 1;
  const int count = group::range_progression({first, last, stride}, size, "range").count;
  if (count < 1) __builtin_unreachable();  // lets the child's box skip checks of its own
  return count;
}

// The index of `rank` in the range of `count` ranks, or kUndefined when it is not a member.
int index_in_range(int rank, int first, int count, int stride) {
  const int offset = rank - first;
  const int index = stride == 1 ? offset : offset / stride;  // no division in the common case
  if ((stride != 1 && offset % stride != 0) || index < 0 || index >= count)
    return group::kUndefined;
  return index;
}

// The range as a progression of base ranks, when the parent's map is a box and the result stays
// one.
std::optional<group::Progression> composed_progression(const p2p::Channel& parent, int first,
                                                       int count, int stride) {
  if (!parent.box()) return std::nullopt;
  return parent.box()->compose_progression(first, count, stride);
}

// `child` carries the caller's base rank, so child.rank() says whether it is a member.
std::optional<Comm> create_local(Runtime& runtime, Comm& parent, const group::Group& child) {
  const group::Rank rank = child.rank();
  const auto derived = next_local_context(runtime, parent, rank != group::kUndefined);
  if (rank == group::kUndefined) return std::nullopt;
  return runtime.open(child.map_ptr(), rank, derived);
}

}  // namespace

context::ContextId longest_run(const context::ContextPool& pool) {
  return std::clamp<context::ContextId>(pool.capacity() / 8, 1, kLongestRun);
}

// The world, the parent of most local creation: its first 1,024 local children beyond its slots
// send nothing. Not the longest run: every process pays for it in memory (prepared tables), and
// it is at most a 64th of the pool, which the 10^6 live communicators need nearly whole.
context::ContextId world_first_run(const context::ContextPool& pool, int derive_bits) {
  constexpr context::ContextId kWorldFirstRun = 1024;
  if (derive_bits == 0) return 0;  // blocks without slots: each local creation allocates its own
  return std::clamp<context::ContextId>(pool.capacity() / 64, 1, kWorldFirstRun);
}

context::Derivation next_local_context(Runtime& runtime, Comm& parent, bool member) {
  if (const auto derived = context::derive_child(parent.derivation())) [[likely]]
    return derived;
  auto block = parent.take_reserved_block();
  if (!block) {
    // Let the used-up run go first, so that highest-CID may settle below its last block: the
    // ids of a communicator that creates again and again stay few.
    parent.drop_reserved_blocks();
    reserve_fresh_blocks(runtime, parent);
    block = parent.take_reserved_block();
  }
  if (!member) runtime.decline_block(*block);  // the block is the child's alone
  return runtime.block_derivation(*block);
}

std::optional<Comm> create_range(Runtime& runtime, Comm& parent, int first, int last, int stride,
                                 const group::MapPolicy& policy) {
  const int count = range_length(parent.size(), first, last, stride);
  // O(1): membership by arithmetic, the map by composing progressions.
  const int index = index_in_range(parent.rank(), first, count, stride);
  const auto derived = next_local_context(runtime, parent, index != group::kUndefined);
  if (index == group::kUndefined) return std::nullopt;
  if (const auto terms = composed_progression(parent.channel(), first, count, stride))
    return runtime.open(*terms, index, derived);
  return runtime.open(range_map(parent.channel(), first, count, stride, policy), index, derived);
}

group::MapPtr range_map(const p2p::Channel& parent, int first, int count, int stride,
                        const group::MapPolicy& policy) {
  if (const auto terms = composed_progression(parent, first, count, stride))
    return group::make_regular_map(group::Box(*terms));
  return group::compose(parent.map_ptr(),
                        group::make_regular_map(group::Box::progression(first, count, stride)),
                        policy);
}

std::optional<Comm> create_from_group(Runtime& runtime, Comm& parent, const group::Group& group) {
  const group::Group parent_group = parent.group();
  check_subset(parent_group, group);
  return create_local(runtime, parent, group.with_self(parent_group.self_world()));
}

}  // namespace scomm::comm
