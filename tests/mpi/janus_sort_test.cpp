// Janus quicksort (apps/janus_sort), both builds: the result is globally sorted, rank i holds
// exactly the i-th slice (floor(i n / P) .. floor((i + 1) n / P)), and it is a permutation of the
// input -- for random, sorted, reverse, all-equal and skewed inputs, empty and uneven ranks.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "janus_sort/inputs.hpp"
#include "janus_sort/janus_sort.hpp"
#include "scomm_fixture.hpp"
#include "smpi_defects.hpp"

namespace {

enum class Build { kScomm, kMpi };

template <class T>
void sort_with(Build build, std::vector<T>& data, SCOMM_Comm comm, MPI_Comm mpi_comm,
               std::uint64_t seed, int gather_counts_max_ranks) {
  janus::Options options;
  options.seed = seed;
  options.gather_counts_max_ranks = gather_counts_max_ranks;
  if (build == Build::kScomm)
    janus::sort(data, comm, options);
  else
    janus::sort_mpi(data, mpi_comm, options);
}

// Every element at rank 0, in rank order.
template <class T>
std::vector<T> gather_all(const std::vector<T>& data, MPI_Comm comm) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  const int mine = static_cast<int>(data.size() * sizeof(T));
  std::vector<int> counts(static_cast<std::size_t>(size)), displs(counts.size());
  MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  int total = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    displs[i] = total;
    total += counts[i];
  }
  std::vector<T> all(static_cast<std::size_t>(total) / sizeof(T));
  MPI_Gatherv(data.data(), mine, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE, 0,
              comm);
  return all;
}

class JanusSortTest : public ScommTest {
 protected:
  int gather_counts_max_ranks_ = janus::Options{}.gather_counts_max_ranks;

  // Sorts `per_rank + uneven * (rank % 3)` elements per rank of `distribution` and checks it.
  template <class T>
  void check_sort(Build build, janus::Distribution distribution, std::uint64_t per_rank,
                  std::uint64_t uneven, std::uint64_t seed) {
    const auto rank = static_cast<std::uint64_t>(world_rank_);
    const std::uint64_t count = per_rank + uneven * (rank % 3);
    std::vector<T> data = janus::make_input<T>(distribution, count, rank * (per_rank + uneven),
                                               per_rank * world_size_, seed + rank);
    const std::vector<T> input = gather_all(data, MPI_COMM_WORLD);
    const std::uint64_t print = janus::fingerprint(data);
    sort_with(build, data, SCOMM_COMM_WORLD, MPI_COMM_WORLD, seed, gather_counts_max_ranks_);
    const janus::Check check = janus::check(data, print, count, MPI_COMM_WORLD);
    const std::string what = std::string(build == Build::kScomm ? "scomm" : "mpi") + " " +
                             janus::name_of(distribution) + " n/P=" + std::to_string(per_rank) +
                             " uneven=" + std::to_string(uneven);
    EXPECT_TRUE(check.sorted) << what;
    EXPECT_TRUE(check.balanced) << what << ": " << data.size() << " elements here";
    EXPECT_TRUE(check.permutation) << what;
    std::vector<T> output = gather_all(data, MPI_COMM_WORLD), expected = input;
    std::ranges::sort(expected);
    if (world_rank_ == 0) {
      EXPECT_EQ(output, expected) << what;
    }
  }

  void check_all(Build build) {
    for (const auto distribution :
         {janus::Distribution::kRandom, janus::Distribution::kSorted, janus::Distribution::kReverse,
          janus::Distribution::kEqual, janus::Distribution::kSkewed})
      for (const auto& [per_rank, uneven] : {std::pair<std::uint64_t, std::uint64_t>{0, 0},
                                             {1, 0},
                                             {0, 1},
                                             {2, 1},
                                             {7, 3},
                                             {100, 0},
                                             {257, 5},
                                             {1000, 333}})
        check_sort<long long>(build, distribution, per_rank, uneven, per_rank * 31 + uneven);
  }
};

TEST_F(JanusSortTest, ScommBuildSortsEveryInput) {
  check_all(Build::kScomm);
}

// The MPI build picks pivots with MPI_Iallreduce and a user-defined op, which SMPI ignores.
TEST_F(JanusSortTest, MpiBuildSortsEveryInput) {
  if (smpi_defect::kNonblockingUserOps) GTEST_SKIP() << "SMPI's MPI_Iallreduce ignores user ops";
  check_all(Build::kMpi);
}

// Groups too large to allgather their counts take the slides' scan and broadcast instead.
TEST_F(JanusSortTest, CountsByScanAndBroadcastInBothBuilds) {
  gather_counts_max_ranks_ = 0;
  check_all(Build::kScomm);
  if (!smpi_defect::kNonblockingUserOps) check_all(Build::kMpi);
}

// Stats add up each build's subgroup creations (some at every rank of a world of several: the
// top group is split) and their time, a part of the sort's.
TEST_F(JanusSortTest, StatsCountCreationsAndTheirTime) {
  if (smpi_defect::kNonblockingUserOps) GTEST_SKIP() << "SMPI's MPI_Iallreduce ignores user ops";
  std::array<janus::Stats, 2> stats{};
  std::array<double, 2> seconds{};
  for (const Build build : {Build::kScomm, Build::kMpi}) {
    std::vector<long long> data = janus::make_input<long long>(
        janus::Distribution::kRandom, 300, 0, 0, 77 + static_cast<unsigned>(world_rank_));
    janus::Options options;
    options.seed = 9;
    options.stats = &stats[static_cast<std::size_t>(build)];
    const double start = MPI_Wtime();
    if (build == Build::kScomm)
      janus::sort(data, SCOMM_COMM_WORLD, options);
    else
      janus::sort_mpi(data, MPI_COMM_WORLD, options);
    seconds[static_cast<std::size_t>(build)] = MPI_Wtime() - start;
  }
  for (std::size_t b = 0; b < 2; ++b) {
    if (world_size_ > 1) {
      EXPECT_GT(stats[b].creations, 0) << "build " << b;
    } else {
      EXPECT_EQ(stats[b].creations, 0) << "build " << b;
    }
    EXPECT_GE(stats[b].creation_seconds, 0.0);
    EXPECT_LE(stats[b].creation_seconds, seconds[b]);
  }
}

TEST_F(JanusSortTest, DoublesBothBuilds) {
  for (const Build build : {Build::kScomm, Build::kMpi})
    if (build == Build::kScomm || !smpi_defect::kNonblockingUserOps)
      check_sort<double>(build, janus::Distribution::kRandom, 4096, 17, 5);
}

// Sorts in a row on one communicator use up its derivation slots, then fresh blocks: every
// member must count the same creations, including at Janus ranks, and free what it made.
TEST_F(JanusSortTest, RepeatedSortsOnWorldLeaveNothingLive) {
  int comms_before = 0, contexts_before = 0, comms_after = 0, contexts_after = 0;
  SCOMM_Comm_live(&comms_before, &contexts_before);
  for (std::uint64_t seed = 0; seed < 12; ++seed)
    check_sort<long long>(Build::kScomm, janus::Distribution::kRandom, 50, 7, seed);
  SCOMM_Comm_live(&comms_after, &contexts_after);
  EXPECT_EQ(comms_after, comms_before);
  EXPECT_EQ(contexts_after, contexts_before);
}

// On a communicator with fewer than two derivation slots the sort copies it (SCOMM_Comm_idup)
// before making overlapping children.
TEST_F(JanusSortTest, SortsOnACommunicatorWithoutSlots) {
  std::vector<SCOMM_Comm> chain{SCOMM_COMM_NULL};
  ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &chain[0]), SCOMM_SUCCESS);  // every slot left
  int slots = 0;
  ASSERT_EQ(SCOMM_Comm_local_slots(chain[0], &slots), SCOMM_SUCCESS);
  for (int wanted : {1, 0}) {
    while (slots > wanted) {  // first children: one slot fewer each
      SCOMM_Comm child = SCOMM_COMM_NULL;
      ASSERT_EQ(SCOMM_Comm_create_range(chain.back(), 0, world_size_ - 1, 1, &child),
                SCOMM_SUCCESS);
      chain.push_back(child);
      ASSERT_EQ(SCOMM_Comm_local_slots(child, &slots), SCOMM_SUCCESS);
    }
    ASSERT_EQ(slots, wanted);
    for (std::uint64_t seed = 0; seed < 3; ++seed) {
      std::vector<long long> data = janus::make_input<long long>(
          janus::Distribution::kRandom, 64, 0, 0, seed * 100 + static_cast<unsigned>(world_rank_));
      const std::uint64_t print = janus::fingerprint(data);
      sort_with(Build::kScomm, data, chain.back(), MPI_COMM_WORLD, seed, gather_counts_max_ranks_);
      EXPECT_TRUE(janus::check(data, print, 64, MPI_COMM_WORLD).ok()) << "slots " << wanted;
    }
  }
  for (auto c = chain.rbegin(); c != chain.rend(); ++c) SCOMM_Comm_free(&*c);
}

}  // namespace
