// Multilevel schedules run by the executor under mpirun, until the selection offers
// 'multilevel': each builder's schedule is launched on the communicator's own levels (emulated
// topologies from SCOMM_TOPO_BLOCKS / per-rank SCOMM_TOPO_COLORS) and its result compared with
// the base MPI's collective, for every root, on the world and on a split.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "scomm.h"
#include "scomm/capi/context.hpp"
#include "scomm/coll/collective.hpp"
#include "scomm/topo/allgather_multilevel.hpp"
#include "scomm/topo/allreduce_multilevel.hpp"
#include "scomm/topo/alltoall_multilevel.hpp"
#include "scomm/topo/barrier_multilevel.hpp"
#include "scomm/topo/bcast_multilevel.hpp"
#include "scomm/topo/gather_multilevel.hpp"
#include "scomm/topo/reduce_multilevel.hpp"
#include "scomm/topo/scan_multilevel.hpp"
#include "scomm/topo/scatter_multilevel.hpp"
#include "scomm_fixture.hpp"
#include "smpi_defects.hpp"

namespace {

using scomm::capi::context;

// Emulated topologies: consecutive blocks, and clusters that are not consecutive.
std::string topology(int index) {
  const int rank = world_rank();
  if (index == 0) return "SCOMM_TOPO_BLOCKS=site=4,machine=2";
  if (index == 1) return "SCOMM_TOPO_BLOCKS=site=3";
  return "SCOMM_TOPO_COLORS=site=" + std::to_string(rank % 2) +
         ",machine=" + std::to_string(rank % 3);
}

class MultilevelTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    const std::string setting = topology(GetParam());
    const std::size_t equals = setting.find('=');
    setenv(setting.substr(0, equals).c_str(), setting.substr(equals + 1).c_str(), 1);
    setenv("SCOMM_TOPO_HWLOC", "none", 1);
    ASSERT_EQ(SCOMM_Init(), SCOMM_SUCCESS);
    unsetenv(setting.substr(0, equals).c_str());
    unsetenv("SCOMM_TOPO_HWLOC");
    SCOMM_Comm_split(SCOMM_COMM_WORLD, world_rank() % 2, -world_rank(), &split_);
    MPI_Comm_split(MPI_COMM_WORLD, world_rank() % 2, -world_rank(), &mpi_split_);
  }
  void TearDown() override {
    SCOMM_Comm_free(&split_);
    MPI_Comm_free(&mpi_split_);
    ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
  }

  // Runs `build(levels, costs, shape)`'s schedule on `comm` with these buffers.
  template <typename Build>
  void run(SCOMM_Comm comm, int root, const void* input, void* output, MPI_Op op, Build&& build) {
    auto& entry = scomm::capi::comm_entry(comm);
    const scomm::topo::Levels& levels =
        entry.topology(context().world_levels, context().world_costs).levels();
    const auto costs = scomm::topo::LevelCosts::defaults(levels.depth());
    scomm::coll::Call call{scomm::capi::runtime(), entry.comm, context().coll_selection, true};
    scomm::coll::launch(call, build(levels, costs, call.shape(root)),
                        scomm::coll::Binding{input, MPI_INT, output, MPI_INT, op});
  }

  std::vector<std::pair<SCOMM_Comm, MPI_Comm>> comms() const {
    return {{SCOMM_COMM_WORLD, MPI_COMM_WORLD}, {split_, mpi_split_}};
  }

  SCOMM_Comm split_ = SCOMM_COMM_NULL;
  MPI_Comm mpi_split_ = MPI_COMM_NULL;
};

std::vector<int> data_of(int rank, int count) {
  std::vector<int> data(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) data[i] = rank * 1000 + i * 7 - 3;
  return data;
}

constexpr int kCounts[] = {1, 5, 40000};

TEST_P(MultilevelTest, BcastEqualsMpi) {
  for (const auto& [comm, mpi] : comms())
    for (int count : kCounts) {
      int size = 0, rank = 0;
      MPI_Comm_size(mpi, &size);
      MPI_Comm_rank(mpi, &rank);
      for (int root = 0; root < size; ++root) {
        std::vector<int> mine = rank == root ? data_of(root, count) : std::vector<int>(count);
        std::vector<int> theirs = mine;
        run(comm, root, mine.data(), mine.data(), MPI_OP_NULL,
            [&](const auto& levels, const auto& costs, const auto& shape) {
              return scomm::topo::bcast_multilevel(levels, costs, shape, count,
                                                   count * std::int64_t{sizeof(int)});
            });
        MPI_Bcast(theirs.data(), count, MPI_INT, root, mpi);
        EXPECT_EQ(mine, theirs) << "root " << root << " count " << count;
      }
    }
}

TEST_P(MultilevelTest, ReduceEqualsMpi) {
  for (const auto& [comm, mpi] : comms())
    for (int count : kCounts) {
      int size = 0, rank = 0;
      MPI_Comm_size(mpi, &size);
      MPI_Comm_rank(mpi, &rank);
      const std::vector<int> input = data_of(rank, count);
      for (int root = 0; root < size; ++root) {
        std::vector<int> mine(count), theirs(count);
        run(comm, root, input.data(), mine.data(), MPI_SUM,
            [&](const auto& levels, const auto& costs, const auto& shape) {
              return scomm::topo::reduce_multilevel(levels, costs, shape, count,
                                                    count * std::int64_t{sizeof(int)}, false, true);
            });
        MPI_Reduce(input.data(), theirs.data(), count, MPI_INT, MPI_SUM, root, mpi);
        if (rank == root) {
          EXPECT_EQ(mine, theirs) << "root " << root << " count " << count;
        }
      }
    }
}

TEST_P(MultilevelTest, AllreduceAndScanEqualMpi) {
  for (const auto& [comm, mpi] : comms())
    for (int count : kCounts) {
      int rank = 0;
      MPI_Comm_rank(mpi, &rank);
      const std::vector<int> input = data_of(rank, count);
      const std::int64_t bytes = count * std::int64_t{sizeof(int)};
      std::vector<int> mine(count), theirs(count);
      run(comm, 0, input.data(), mine.data(), MPI_SUM,
          [&](const auto& levels, const auto& costs, const auto& shape) {
            return scomm::topo::allreduce_multilevel(levels, costs, shape, count, bytes, false,
                                                     true);
          });
      MPI_Allreduce(input.data(), theirs.data(), count, MPI_INT, MPI_SUM, mpi);
      EXPECT_EQ(mine, theirs) << "allreduce count " << count;
      run(comm, 0, input.data(), mine.data(), MPI_SUM,
          [&](const auto& levels, const auto& costs, const auto& shape) {
            return scomm::topo::scan_multilevel(levels, costs, shape, count, bytes, false);
          });
      MPI_Scan(input.data(), theirs.data(), count, MPI_INT, MPI_SUM, mpi);
      EXPECT_EQ(mine, theirs) << "scan count " << count;
    }
}

TEST_P(MultilevelTest, ExscanEqualsMpi) {
  for (const auto& [comm, mpi] : comms()) {
    int rank = 0;
    MPI_Comm_rank(mpi, &rank);
    const int count = 5;
    const std::vector<int> input = data_of(rank, count);
    std::vector<int> mine(count), theirs(count);
    run(comm, 0, input.data(), mine.data(), MPI_SUM,
        [&](const auto& levels, const auto& costs, const auto& shape) {
          return scomm::topo::exscan_multilevel(levels, costs, shape, count,
                                                count * std::int64_t{sizeof(int)}, false);
        });
    MPI_Exscan(input.data(), theirs.data(), count, MPI_INT, MPI_SUM, mpi);
    if (rank > 0) {
      EXPECT_EQ(mine, theirs);
    }
  }
}

TEST_P(MultilevelTest, GatherAndScatterEqualMpi) {
  for (const auto& [comm, mpi] : comms())
    for (int count : {1, 3000}) {
      int size = 0, rank = 0;
      MPI_Comm_size(mpi, &size);
      MPI_Comm_rank(mpi, &rank);
      const std::int64_t bytes = count * std::int64_t{sizeof(int)};
      const std::vector<int> block = data_of(rank, count), all = data_of(rank, count * size);
      for (int root = 0; root < size; ++root) {
        std::vector<int> mine(all.size()), theirs(all.size());
        run(comm, root, block.data(), mine.data(), MPI_OP_NULL,
            [&](const auto& levels, const auto& costs, const auto& shape) {
              return scomm::topo::gather_multilevel(levels, costs, shape, count, count, bytes,
                                                    false);
            });
        MPI_Gather(block.data(), count, MPI_INT, theirs.data(), count, MPI_INT, root, mpi);
        if (rank == root) {
          EXPECT_EQ(mine, theirs) << "gather root " << root << " count " << count;
        }
        std::vector<int> part(block.size()), expected(block.size());
        run(comm, root, all.data(), part.data(), MPI_OP_NULL,
            [&](const auto& levels, const auto& costs, const auto& shape) {
              return scomm::topo::scatter_multilevel(levels, costs, shape, count, count, bytes,
                                                     false);
            });
        MPI_Scatter(all.data(), count, MPI_INT, expected.data(), count, MPI_INT, root, mpi);
        EXPECT_EQ(part, expected) << "scatter root " << root << " count " << count;
      }
    }
}

TEST_P(MultilevelTest, AllgatherAlltoallAndBarrier) {
  for (const auto& [comm, mpi] : comms()) {
    int size = 0, rank = 0;
    MPI_Comm_size(mpi, &size);
    MPI_Comm_rank(mpi, &rank);
    const int count = 4;
    const std::int64_t bytes = count * std::int64_t{sizeof(int)};
    const std::vector<int> block = data_of(rank, count), all = data_of(rank, count * size);
    std::vector<int> mine(all.size()), theirs(all.size());
    run(comm, 0, block.data(), mine.data(), MPI_OP_NULL,
        [&](const auto& levels, const auto& costs, const auto& shape) {
          return scomm::topo::allgather_multilevel(levels, costs, shape, count, count, bytes,
                                                   false);
        });
    MPI_Allgather(block.data(), count, MPI_INT, theirs.data(), count, MPI_INT, mpi);
    EXPECT_EQ(mine, theirs) << "allgather";
    run(comm, 0, all.data(), mine.data(), MPI_OP_NULL,
        [&](const auto& levels, const auto&, const auto& shape) {
          return scomm::topo::alltoall_multilevel(levels, shape, count, count, false);
        });
    MPI_Alltoall(all.data(), count, MPI_INT, theirs.data(), count, MPI_INT, mpi);
    EXPECT_EQ(mine, theirs) << "alltoall";
    run(comm, 0, nullptr, nullptr, MPI_OP_NULL,
        [&](const auto& levels, const auto& costs, const auto& shape) {
          return scomm::topo::barrier_multilevel(levels, costs, shape);
        });
  }
}

INSTANTIATE_TEST_SUITE_P(Topologies, MultilevelTest, ::testing::Values(0, 1, 2));

// SCOMM_TOPO_LINKS: with a slow LAN between the machines of a site, small messages leave the site
// level out (topo/network.hpp); the C API's multilevel collectives still equal MPI's.
constexpr const char* kSlowLan = "site=1ms:100MB/s:5us,machine=100us:1GB/s:1us,inside=1us";

class MultilevelLinksTest : public ::testing::Test {
 protected:
  static int init(const char* links) {
    set_environment_together("SCOMM_TOPO_BLOCKS", "site=4,machine=2");
    set_environment_together("SCOMM_TOPO_HWLOC", "none");
    set_environment_together("SCOMM_TOPO_LINKS", links);
    const int code = SCOMM_Init();
    for (const char* name : {"SCOMM_TOPO_BLOCKS", "SCOMM_TOPO_HWLOC", "SCOMM_TOPO_LINKS"})
      set_environment_together(name, nullptr);
    return code;
  }
};

TEST_F(MultilevelLinksTest, CollectivesWithLevelsLeftOutEqualMpi) {
  ASSERT_EQ(init(kSlowLan), SCOMM_SUCCESS);
  const scomm::topo::Network& network = scomm::capi::comm_entry(SCOMM_COMM_WORLD)
                                            .topology(context().world_levels, context().world_costs)
                                            .network();
  if (network.levels().depth() == 2 && network.levels().clusters(0) > 1) {
    EXPECT_EQ(network.for_message(4).levels().depth(), 1);  // two sites: the relay is dropped
    EXPECT_EQ(network.for_message(160000).levels().depth(), 2);
  }
  int size = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int count : kCounts)
    for (int root = 0; root < size; ++root) {
      std::vector<int> mine = rank == root ? data_of(root, count) : std::vector<int>(count);
      std::vector<int> theirs = mine;
      ASSERT_EQ(SCOMM_Bcast(mine.data(), count, MPI_INT, root, SCOMM_COMM_WORLD), SCOMM_SUCCESS);
      MPI_Bcast(theirs.data(), count, MPI_INT, root, MPI_COMM_WORLD);
      EXPECT_EQ(mine, theirs) << "bcast from " << root << ", count " << count;
      const std::vector<int> input = data_of(rank, count);
      ASSERT_EQ(
          SCOMM_Reduce(input.data(), mine.data(), count, MPI_INT, MPI_SUM, root, SCOMM_COMM_WORLD),
          SCOMM_SUCCESS);
      MPI_Reduce(input.data(), theirs.data(), count, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
      if (rank == root) {
        EXPECT_EQ(mine, theirs) << "reduce to " << root << ", count " << count;
      }
      ASSERT_EQ(
          SCOMM_Allreduce(input.data(), mine.data(), count, MPI_INT, MPI_MAX, SCOMM_COMM_WORLD),
          SCOMM_SUCCESS);
      MPI_Allreduce(input.data(), theirs.data(), count, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
      EXPECT_EQ(mine, theirs) << "allreduce, count " << count;
      ASSERT_EQ(SCOMM_Barrier(SCOMM_COMM_WORLD), SCOMM_SUCCESS);
    }
  ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
}

TEST_F(MultilevelLinksTest, AMalformedSettingIsAnError) {
  const int code = init("machine=100us:fast");
  EXPECT_EQ(error_class_of(code), SCOMM_ERR_ARG);
  char text[SCOMM_MAX_ERROR_STRING];
  int length = 0;
  SCOMM_Error_string(code, text, &length);
  EXPECT_NE(std::string(text).find("SCOMM_TOPO_LINKS"), std::string::npos) << text;
  ASSERT_EQ(init(kSlowLan), SCOMM_SUCCESS);  // and SCOMM_Init can be called again
  ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
}

// Each rank sets its own value, before the others read theirs: not on SMPI, whose ranks share one
// environment.
TEST_F(MultilevelLinksTest, RanksThatDisagreeAllFail) {
  if (world_size() < 2 || kOnSmpi) GTEST_SKIP() << "needs two ranks, each its own environment";
  setenv("SCOMM_TOPO_LINKS", world_rank() == 0 ? kSlowLan : "site=2ms", 1);
  const int code = SCOMM_Init();
  unsetenv("SCOMM_TOPO_LINKS");
  EXPECT_EQ(error_class_of(code), SCOMM_ERR_ARG);
  if (code == SCOMM_SUCCESS) SCOMM_Finalize();
}

}  // namespace
