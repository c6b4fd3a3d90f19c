// Which collectives run multilevel without being asked: only on a communicator spanning several
// clusters of its outermost level, and not all-to-all (by leaders) nor the v-forms and
// reduce-scatters, which have no multilevel schedule.
#include <gtest/gtest.h>

#include "scomm/topo/multilevel_default.hpp"

namespace {

using scomm::coll::Operation;
using scomm::topo::Levels;
using scomm::topo::multilevel_by_default;

TEST(MultilevelDefault, OnlyWhereTheOutermostLevelHasSeveralClusters) {
  const Levels two_sites = Levels::blocks({"site", "machine"}, {8, 4}, 16);
  const Levels one_site = Levels::blocks({"site", "machine"}, {16, 4}, 16);
  const Levels flat = Levels::blocks({}, {}, 16);
  EXPECT_TRUE(multilevel_by_default(Operation::kBcast, two_sites));
  ASSERT_EQ(one_site.clusters(0), 1);
  EXPECT_FALSE(multilevel_by_default(Operation::kBcast, one_site));
  EXPECT_FALSE(multilevel_by_default(Operation::kBcast, flat));
}

TEST(MultilevelDefault, TheOperationsWithADefaultMultilevelSchedule) {
  const Levels levels = Levels::blocks({"site"}, {4}, 12);
  for (Operation op : {Operation::kBarrier, Operation::kBcast, Operation::kReduce,
                       Operation::kAllreduce, Operation::kGather, Operation::kScatter,
                       Operation::kAllgather, Operation::kScan, Operation::kExscan})
    EXPECT_TRUE(multilevel_by_default(op, levels)) << static_cast<int>(op);
  for (Operation op :
       {Operation::kAlltoall, Operation::kGatherv, Operation::kScatterv, Operation::kAllgatherv,
        Operation::kAlltoallv, Operation::kReduceScatterBlock, Operation::kReduceScatter})
    EXPECT_FALSE(multilevel_by_default(op, levels)) << static_cast<int>(op);
}

}  // namespace
