// The selection table at the edges of its rules, where ranks share cores and where they do not,
// and the forced algorithm over the table.
#include "scomm/coll/selection.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

namespace scomm::coll {
namespace {

using enum Algorithm;
using enum Operation;
constexpr std::int64_t kKiB = 1024;

Selection with_cores_shared(bool shared) {
  Selection selection;
  selection.set_cores_shared(shared);
  return selection;
}

TEST(Selection, BcastGoesDownTheBinaryTreeOnEightRanksFromTheShortestVector) {
  const Selection s;
  EXPECT_EQ(s.choose(kBcast, 8, 4), kBinomial);
  EXPECT_EQ(s.choose(kBcast, 4 * kKiB - 8, 4), kBinomial);
  EXPECT_EQ(s.choose(kBcast, 8, 8), kPipelinedTree);
  EXPECT_EQ(s.choose(kBcast, 16 * kKiB, 16), kPipelinedTree);
  EXPECT_EQ(s.choose(kBcast, 32 * kKiB, 8), kBinomial);
  EXPECT_EQ(s.choose(kBcast, 512 * kKiB, 8), kScatterAllgather);
}

TEST(Selection, BcastStaysOnTheBinaryTreeAtEverySizeOnSixteenRanks) {
  const Selection s;
  for (const std::int64_t bytes : {8 * kKiB, 32 * kKiB, 512 * kKiB, 1024 * kKiB})
    EXPECT_EQ(s.choose(kBcast, bytes, 16), kPipelinedTree) << bytes;
  EXPECT_EQ(s.choose(kBcast, 1024 * kKiB, 15), kScatterAllgather);
}

TEST(Selection, BcastSegmentsFollowTheVectorUnlessTheSegmentIsSet) {
  ASSERT_EQ(unsetenv("SCOMM_COLL_SEGMENT"), 0);
  const Selection table = Selection::from_environment();
  // 2 KiB segments from 4 KiB to below 8 KiB on ranks with cores of their own, else 32 KiB.
  EXPECT_EQ(table.bcast_segment_bytes(4 * kKiB - 8), 32 * kKiB);
  EXPECT_EQ(table.bcast_segment_bytes(4 * kKiB), 2 * kKiB);
  EXPECT_EQ(table.bcast_segment_bytes(8 * kKiB - 8), 2 * kKiB);
  EXPECT_EQ(table.bcast_segment_bytes(8 * kKiB), 32 * kKiB);
  Selection shared = table;
  shared.set_cores_shared(true);
  EXPECT_EQ(shared.bcast_segment_bytes(4 * kKiB), 32 * kKiB);
  EXPECT_EQ(table.bcast_segment_bytes(256 * kKiB - 8), 32 * kKiB);
  EXPECT_EQ(table.bcast_segment_bytes(256 * kKiB), 128 * kKiB);
  EXPECT_EQ(table.segment_bytes(), 32 * kKiB);
  ASSERT_EQ(setenv("SCOMM_COLL_SEGMENT", "4096", 1), 0);
  const Selection set = Selection::from_environment();
  unsetenv("SCOMM_COLL_SEGMENT");
  EXPECT_EQ(set.bcast_segment_bytes(8), 4096);
  EXPECT_EQ(set.bcast_segment_bytes(1024 * kKiB), 4096);
  EXPECT_EQ(set.segment_bytes(), 4096);
}

TEST(Selection, BcastWhereRanksShareCoresKeepsToFewHops) {
  const Selection shared = with_cores_shared(true), own = with_cores_shared(false);
  EXPECT_EQ(shared.choose(kBcast, 32 * kKiB - 8, 4), kBinomial);
  EXPECT_EQ(shared.choose(kBcast, 32 * kKiB, 4), kKnomial);
  EXPECT_EQ(shared.choose(kBcast, 512 * kKiB - 8, 7), kKnomial);
  EXPECT_EQ(shared.choose(kBcast, 512 * kKiB, 7), kBinomial);
  EXPECT_EQ(shared.choose(kBcast, 32 * kKiB, 8), kBinomial);
  EXPECT_EQ(shared.choose(kBcast, 1024 * kKiB, 8), kBinomial);
  EXPECT_EQ(shared.choose(kBcast, 8, 8), kPipelinedTree);
  EXPECT_EQ(shared.choose(kBcast, 1024 * kKiB, 16), kPipelinedTree);
  EXPECT_EQ(own.choose(kBcast, 32 * kKiB, 4), kBinomial);
  EXPECT_EQ(own.choose(kBcast, 1024 * kKiB, 8), kScatterAllgather);
}

TEST(Selection, ReduceKeepsTheBinomialTreeBelowFourKiB) {
  const Selection s;
  EXPECT_EQ(s.choose(kReduce, 4 * kKiB - 8, 8), kBinomial);
  EXPECT_EQ(s.choose(kReduce, 4 * kKiB, 8), kPipelinedTree);
  EXPECT_EQ(s.choose(kReduce, 8 * kKiB, 4), kBinomial);
  EXPECT_EQ(s.choose(kReduce, 256 * kKiB, 8), kBinomial);
}

// Just above an eager message, on cores of their own, bcast down the tree in segments that each
// go eagerly at any number of ranks, reduce on two ranks only; where ranks share cores, the table
// as before.
TEST(Selection, BcastOfFourToEightKiBGoesInEagerSegmentsOnOwnCores) {
  const Selection own = with_cores_shared(false), shared = with_cores_shared(true);
  for (const int size : {2, 3, 4, 7}) {
    EXPECT_EQ(own.choose(kBcast, 4 * kKiB, size), kPipelinedTree) << size;
    EXPECT_EQ(own.choose(kBcast, 8 * kKiB - 8, size), kPipelinedTree) << size;
    EXPECT_EQ(own.choose(kBcast, 8 * kKiB, size), kBinomial) << size;
    EXPECT_EQ(shared.choose(kBcast, 4 * kKiB, size), kBinomial) << size;
  }
}

TEST(Selection, ReduceOfFourToEightKiBGoesInEagerSegmentsOnTwoOwnCoresOnly) {
  const Selection own = with_cores_shared(false), shared = with_cores_shared(true);
  EXPECT_EQ(own.choose(kReduce, 4 * kKiB, 2), kPipelinedTree);
  EXPECT_EQ(own.choose(kReduce, 8 * kKiB - 8, 2), kPipelinedTree);
  EXPECT_EQ(own.choose(kReduce, 8 * kKiB, 2), kBinomial);
  EXPECT_EQ(shared.choose(kReduce, 4 * kKiB, 2), kBinomial);
  for (const int size : {3, 4, 7}) EXPECT_EQ(own.choose(kReduce, 4 * kKiB, size), kBinomial);
  EXPECT_EQ(own.choose(kReduce, 4 * kKiB, 8), kPipelinedTree);
  EXPECT_EQ(own.reduce_segment_bytes(4 * kKiB, 8), 32 * kKiB);  // the whole vector up the tree
  EXPECT_EQ(own.reduce_segment_bytes(4 * kKiB, 16), 32 * kKiB);
  EXPECT_EQ(shared.choose(kReduce, 4 * kKiB, 8), kBinomial);
}

TEST(Selection, ReduceSegmentsFitAnEagerMessageOnTwoRanksUnlessTheSegmentIsSet) {
  ASSERT_EQ(unsetenv("SCOMM_COLL_SEGMENT"), 0);
  const Selection table = Selection::from_environment();
  EXPECT_EQ(table.reduce_segment_bytes(4 * kKiB - 8, 2), 32 * kKiB);
  EXPECT_EQ(table.reduce_segment_bytes(4 * kKiB, 2), 2 * kKiB);
  EXPECT_EQ(table.reduce_segment_bytes(8 * kKiB - 8, 2), 2 * kKiB);
  EXPECT_EQ(table.reduce_segment_bytes(8 * kKiB, 2), 32 * kKiB);
  EXPECT_EQ(table.reduce_segment_bytes(4 * kKiB, 3), 32 * kKiB);
  EXPECT_EQ(table.reduce_segment_bytes(256 * kKiB, 2), 32 * kKiB);  // no long segments up a tree
  ASSERT_EQ(setenv("SCOMM_COLL_SEGMENT", "4096", 1), 0);
  const Selection set = Selection::from_environment();
  unsetenv("SCOMM_COLL_SEGMENT");
  EXPECT_EQ(set.reduce_segment_bytes(6 * kKiB, 8), 4096);
}

TEST(Selection, ReduceKeepsTheBinomialTreeWhereRanksShareCores) {
  const Selection shared = with_cores_shared(true);
  for (const std::int64_t bytes : {4 * kKiB, 32 * kKiB, 128 * kKiB})
    EXPECT_EQ(shared.choose(kReduce, bytes, 8), kBinomial) << bytes;
}

TEST(Selection, GatherGoesLinearLaterOnEightOwnCoresOrMore) {
  const Selection own = with_cores_shared(false), shared = with_cores_shared(true);
  EXPECT_EQ(own.choose(kGather, 4 * kKiB - 8, 4), kBinomial);
  EXPECT_EQ(own.choose(kGather, 4 * kKiB, 4), kLinear);
  EXPECT_EQ(own.choose(kGather, 4 * kKiB, 8), kBinomial);
  EXPECT_EQ(own.choose(kGather, 32 * kKiB, 8), kLinear);
  EXPECT_EQ(shared.choose(kGather, 4 * kKiB, 8), kLinear);
}

TEST(Selection, ReduceScatterGoesPairwiseSoonerWhereRanksShareCores) {
  for (const Operation operation : {kReduceScatter, kReduceScatterBlock}) {
    const Selection shared = with_cores_shared(true), own = with_cores_shared(false);
    EXPECT_EQ(shared.choose(operation, 32 * kKiB - 8, 8), kRecursiveHalving);
    EXPECT_EQ(shared.choose(operation, 32 * kKiB, 8), kPairwise);
    EXPECT_EQ(own.choose(operation, 32 * kKiB, 8), kRecursiveHalving);
    EXPECT_EQ(own.choose(operation, 128 * kKiB, 8), kPairwise);
    EXPECT_EQ(own.choose(operation, 128 * kKiB, 8, false), kRecursiveHalving);
  }
}

TEST(Selection, TheScanChainGoesInSegmentsOnlyForLongVectorsOnEightOwnCores) {
  const Selection shared = with_cores_shared(true), own = with_cores_shared(false);
  EXPECT_TRUE(own.cuts_scan_chain(512 * kKiB, 8));
  EXPECT_FALSE(own.cuts_scan_chain(512 * kKiB - 8, 8));
  EXPECT_FALSE(own.cuts_scan_chain(512 * kKiB, 7));
  EXPECT_FALSE(shared.cuts_scan_chain(1024 * kKiB, 16));
  // Segments of 32 KiB where it cuts (doubles: 4,096 of them), else the whole vector.
  EXPECT_EQ(own.scan_chain_segment(512 * kKiB, 64 * kKiB, 8), 4 * kKiB);
  EXPECT_EQ(own.scan_chain_segment(512 * kKiB, 64 * kKiB, 7), 64 * kKiB);
  EXPECT_EQ(shared.scan_chain_segment(1024 * kKiB, 128 * kKiB, 16), 128 * kKiB);
  EXPECT_EQ(own.scan_chain_segment(0, 0, 8), 1);
}

TEST(Selection, CoresSharedIsWhatItWasTold) {
  EXPECT_FALSE(Selection().cores_shared());
  EXPECT_TRUE(with_cores_shared(true).cores_shared());
  EXPECT_FALSE(with_cores_shared(false).cores_shared());
}

TEST(Selection, AForcedAlgorithmWinsOverTheTableUntilReleased) {
  Selection s;
  s.force(kGather, kLinear);
  EXPECT_EQ(s.choose(kGather, 8, 8), kLinear);
  EXPECT_EQ(s.forced(kGather), kLinear);
  s.force(kGather, std::nullopt);
  EXPECT_EQ(s.choose(kGather, 8, 8), kBinomial);
}

}  // namespace
}  // namespace scomm::coll
