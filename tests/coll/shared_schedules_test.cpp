// The schedules communicators of one shape share: found by key, rank and size alike, never
// another shape's, and only the short and shareable ones kept.
#include "scomm/coll/shared_schedules.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace scomm::coll {
namespace {

// A schedule of `rounds` rounds of one send each (to rank 1) and one round of `transfers` sends.
std::shared_ptr<const Schedule> schedule_of(int rounds, int transfers = 1) {
  Schedule schedule;
  for (int r = 0; r < rounds; ++r) schedule.next_round().send(1, {kOutput, r, 1});
  schedule.next_round();
  for (int t = 0; t < transfers; ++t) schedule.send(1, {kOutput, t, 1});
  return std::make_shared<const Schedule>(std::move(schedule));
}

const ScheduleKey kBcast8{Operation::kBcast, Algorithm::kBinomial, 0, false, 8};

TEST(SharedSchedules, FindsWhatWasKeptForTheSameKeyRankAndSizeOnly) {
  SharedSchedules shared;
  EXPECT_EQ(shared.find(kBcast8, 1, 4), nullptr);
  const auto kept = schedule_of(2);
  shared.keep(kBcast8, 1, 4, kept);
  EXPECT_EQ(shared.find(kBcast8, 1, 4), kept);
  EXPECT_EQ(shared.find(kBcast8, 2, 4), nullptr);
  EXPECT_EQ(shared.find(kBcast8, 1, 5), nullptr);
  ScheduleKey other_root = kBcast8;
  other_root.root = 1;
  EXPECT_EQ(shared.find(other_root, 1, 4), nullptr);
  ScheduleKey other_count = kBcast8;
  other_count.count = 9;
  EXPECT_EQ(shared.find(other_count, 1, 4), nullptr);
  shared.clear();
  EXPECT_EQ(shared.find(kBcast8, 1, 4), nullptr);
}

TEST(SharedSchedules, KeepsNoLongSchedule) {
  SharedSchedules shared;
  shared.keep(kBcast8, 0, 4, schedule_of(SharedSchedules::kMostRounds));
  EXPECT_EQ(shared.find(kBcast8, 0, 4), nullptr);
  shared.keep(kBcast8, 0, 4, schedule_of(1, SharedSchedules::kMostRoundTransfers + 1));
  EXPECT_EQ(shared.find(kBcast8, 0, 4), nullptr);
  const auto short_one = schedule_of(SharedSchedules::kMostRounds - 1);
  shared.keep(kBcast8, 0, 4, short_one);
  EXPECT_EQ(shared.find(kBcast8, 0, 4), short_one);
}

TEST(SharedSchedules, ShareNeitherVFormsNorTopologyTrees) {
  EXPECT_TRUE(SharedSchedules::shareable(kBcast8, false));
  EXPECT_FALSE(SharedSchedules::shareable(kBcast8, true));
  ScheduleKey multilevel = kBcast8;
  multilevel.algorithm = Algorithm::kMultilevel;
  EXPECT_FALSE(SharedSchedules::shareable(multilevel, false));
}

// Every slot reused by many shapes: a lookup never returns a schedule kept for another shape.
TEST(SharedSchedules, CollidingShapesNeverMix) {
  SharedSchedules shared;
  for (int size = 2; size < 200; ++size) {
    const auto kept = schedule_of(1);
    shared.keep(kBcast8, 0, size, kept);
    ASSERT_EQ(shared.find(kBcast8, 0, size), kept);
    for (int earlier = 2; earlier < size; ++earlier) {
      const auto found = shared.find(kBcast8, 0, earlier);
      ASSERT_NE(found, kept) << size << " " << earlier;
    }
  }
}

}  // namespace
}  // namespace scomm::coll
