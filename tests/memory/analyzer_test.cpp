// The memory analyzer's arithmetic on tiny workloads whose figures follow by hand: 3 odd/even
// splits at P = 64 (three 32-member stride maps), dups sharing the world's map, and the slots of
// one Cartesian grid's sub-grids.
#include <gtest/gtest.h>

#include <stdexcept>

#include "../../bench/memory/analysis.hpp"
#include "../../bench/memory/memory_workloads.hpp"
#include "scomm/group/regular_map.hpp"

namespace scomm::bench {
namespace {

std::size_t regular_bytes(std::int64_t base, Rank count, std::int64_t stride) {
  return group::make_regular_map(group::Box::progression(base, count, stride))->bytes();
}

TEST(MemoryAnalyzer, ThreeOddEvenSplitsAtSixtyFour) {
  RankState state(64, 0);
  odd_even_splits(state, 3);
  const RankAnalysis r = analyze(state, 0);
  const ObjectSizes sizes = object_sizes();

  ASSERT_EQ(r.communicators, 4);  // the world and three splits
  // One block of 2^4 ids per collective creation, in order: the world's (id 0), then, after the
  // world's first run of 1,024 blocks (SCOMM_Init's), the splits' (blocks 1,025-1,027).
  EXPECT_EQ(state.comm(0).context(), context::ContextId(0));
  for (int i = 1; i < 4; ++i)
    EXPECT_EQ(state.comm(i).context(), context::ContextId(16 * (1024 + i)));
  EXPECT_EQ(state.held().held(), 4u);

  const std::size_t world_map = regular_bytes(0, 64, 1), split_map = regular_bytes(0, 32, 2);
  EXPECT_EQ(r.parts.maps, world_map + 3 * split_map);
  EXPECT_LE(split_map, 64u);
  EXPECT_EQ(r.max_regular_map_bytes, std::max(world_map, split_map));
  EXPECT_EQ(r.parts.channels, 4 * sizes.channel);
  EXPECT_EQ(r.parts.handles, 4 * sizes.handle_slot);
  EXPECT_GT(r.parts.world_run_table, 0u);  // SCOMM_Init's room for the world's first run
  EXPECT_EQ(r.parts.total(), r.parts.maps + r.parts.context_table + r.parts.world_run_table +
                                 r.parts.held_ids + r.parts.block_pool + r.parts.channels +
                                 r.parts.handles + r.parts.process);
  // 2^20 ids: the held-id bits cover the world's run and the ids held (257 words, not 2^14);
  // 2^16 blocks (two bit arrays of 2^10 words).
  EXPECT_GT(r.parts.held_ids, std::size_t{257 * 8});
  EXPECT_LT(r.parts.held_ids, std::size_t{4096});
  EXPECT_GE(r.parts.block_pool, 2 * (std::size_t{1} << 16) / 8);

  ASSERT_EQ(r.kinds.size(), 2u);
  const KindSummary& splits = r.kinds[1];
  EXPECT_EQ(splits.kind, "odd/even split of world");
  EXPECT_EQ(splits.count, 3);
  EXPECT_EQ(splits.members_min, 32);
  EXPECT_EQ(splits.members_max, 32);
  EXPECT_EQ(splits.map_bytes_total, 3 * split_map);
  EXPECT_TRUE(splits.all_regular);
  EXPECT_EQ(splits.representations, std::vector<std::string>{"stride"});

  // Published structures: MPICH keeps a strided map in 32 bytes; Open MPI's dense groups a
  // pointer per member; a plain array 4 bytes per member (64 + 3 x 32 members).
  EXPECT_DOUBLE_EQ(r.published.mpich, 4 * 32.0);
  EXPECT_DOUBLE_EQ(r.published.open_mpi_dense, 8.0 * (64 + 3 * 32));
  EXPECT_DOUBLE_EQ(r.published.plain_array, 4.0 * (64 + 3 * 32));
}

TEST(MemoryAnalyzer, OddRankGetsTheOffsetStride) {
  RankState state(64, 63);
  odd_even_splits(state, 1);
  EXPECT_EQ(state.comms()[1].map->name(), "stride");
  EXPECT_EQ(state.comm(1).channel().select(0), 1);
  EXPECT_EQ(state.comm(1).rank(), 31);
}

TEST(MemoryAnalyzer, DupsShareTheWorldsMap) {
  RankState state(64, 5);
  state.dup(RankState::kWorld, "dup");
  state.dup(RankState::kWorld, "dup");
  const RankAnalysis r = analyze(state, 0);
  EXPECT_EQ(r.parts.maps, regular_bytes(0, 64, 1));
  EXPECT_EQ(r.kinds[1].shared_maps, 2);
  EXPECT_EQ(r.kinds[1].map_bytes_total, 0u);
}

// Each derivation slot serves once: the library's fifth sub-grid would take a fresh block
// collectively, which the one-rank analyzer cannot do.
TEST(MemoryAnalyzer, AFifthSubGridNeedsAFreshBlock) {
  RankState state(64, 0);
  const int cart = state.cart_create(RankState::kWorld,
                                     group::CartGrid({4, 4, 4}, {false, false, false}), "grid");
  for (int k = 0; k < 4; ++k) state.cart_sub(cart, {k == 0, k == 1, k >= 2}, "sub");
  EXPECT_THROW(state.cart_sub(cart, {true, true, false}, "fifth"), std::runtime_error);
}

}  // namespace
}  // namespace scomm::bench
