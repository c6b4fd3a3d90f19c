// Check mode (SCOMM_COLL_CHECK=on): members of a blocking collective that called it with
// different roots, collectives, block sizes, operations (user-defined ones by whether they
// commute) or count arrays, or with arguments invalid at some member only, all get the same
// error, without a hang, and the communicator keeps working; calls that agree give MPI's results.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <numeric>
#include <vector>

#include "scomm.h"
#include "scomm_fixture.hpp"

namespace {

class CollCheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    set_environment_together("SCOMM_COLL_CHECK", "on");
    ASSERT_EQ(SCOMM_Init(), SCOMM_SUCCESS);
    ASSERT_EQ(SCOMM_Comm_set_errhandler(SCOMM_COMM_WORLD, SCOMM_ERRORS_RETURN), SCOMM_SUCCESS);
    rank_ = world_rank();
    size_ = world_size();
  }
  void TearDown() override {
    ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
    set_environment_together("SCOMM_COLL_CHECK", nullptr);
  }

  // After a failed call, the next collective still gives the right answer at every member.
  void expect_world_still_works() const {
    int value = rank_ + 1, sum = 0;
    ASSERT_EQ(SCOMM_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, SCOMM_COMM_WORLD), SCOMM_SUCCESS);
    EXPECT_EQ(sum, size_ * (size_ + 1) / 2);
  }

  int rank_ = 0;
  int size_ = 0;
};

TEST_F(CollCheckTest, AgreeingCallsGiveMpisResults) {
  std::vector<int> data(5, rank_ == size_ - 1 ? 42 : -1);
  ASSERT_EQ(SCOMM_Bcast(data.data(), 5, MPI_INT, size_ - 1, SCOMM_COMM_WORLD), SCOMM_SUCCESS);
  EXPECT_EQ(data, std::vector<int>(5, 42));
  // The root gathers in place: its block is the receive side's, as the others' send side.
  std::vector<int> gathered(static_cast<std::size_t>(size_), -1);
  int mine = rank_ * 10;
  if (rank_ == 0) {
    gathered[0] = 0;
    ASSERT_EQ(SCOMM_Gather(SCOMM_IN_PLACE, 0, MPI_DATATYPE_NULL, gathered.data(), 1, MPI_INT, 0,
                           SCOMM_COMM_WORLD),
              SCOMM_SUCCESS);
    for (int r = 0; r < size_; ++r) EXPECT_EQ(gathered[static_cast<std::size_t>(r)], r * 10);
  } else {
    ASSERT_EQ(SCOMM_Gather(&mine, 1, MPI_INT, nullptr, 0, MPI_DATATYPE_NULL, 0, SCOMM_COMM_WORLD),
              SCOMM_SUCCESS);
  }
  std::vector<int> counts(static_cast<std::size_t>(size_), 2), in(2 * gathered.size(), 1), out(2);
  ASSERT_EQ(SCOMM_Reduce_scatter(in.data(), out.data(), counts.data(), MPI_INT, MPI_SUM,
                                 SCOMM_COMM_WORLD),
            SCOMM_SUCCESS);
  EXPECT_EQ(out, std::vector<int>(2, size_));
  // Nonblocking calls are not checked, and run as usual.
  SCOMM_Request request = SCOMM_REQUEST_NULL;
  ASSERT_EQ(SCOMM_Ibarrier(SCOMM_COMM_WORLD, &request), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Wait(&request, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
}

TEST_F(CollCheckTest, DifferentRootsFailEverywhere) {
  if (size_ < 2) GTEST_SKIP() << "needs two ranks";
  int value = 7;
  const int root = rank_ % 2 == 0 ? 0 : size_ - 1;
  EXPECT_EQ(error_class_of(SCOMM_Bcast(&value, 1, MPI_INT, root, SCOMM_COMM_WORLD)),
            SCOMM_ERR_ROOT);
  int sum = 0;
  EXPECT_EQ(error_class_of(SCOMM_Reduce(&value, &sum, 1, MPI_INT, MPI_SUM, root, SCOMM_COMM_WORLD)),
            SCOMM_ERR_ROOT);
  expect_world_still_works();
}

TEST_F(CollCheckTest, DifferentCollectivesFailEverywhere) {
  if (size_ < 2) GTEST_SKIP() << "needs two ranks";
  int value = 1, result = 0;
  const int code = rank_ == 0
                       ? SCOMM_Bcast(&value, 1, MPI_INT, 0, SCOMM_COMM_WORLD)
                       : SCOMM_Allreduce(&value, &result, 1, MPI_INT, MPI_SUM, SCOMM_COMM_WORLD);
  EXPECT_EQ(error_class_of(code), SCOMM_ERR_ARG);
  expect_world_still_works();
}

// Local creations made in different orders: each member calls another range at the same place,
// which would give two communicators one derived context (docs/DESIGN.md). In check mode every
// member fails the call; agreeing creations go on as ever.
TEST_F(CollCheckTest, LocalCreationsInDifferentOrdersFailEverywhere) {
  if (size_ < 2) GTEST_SKIP() << "needs two ranks";
  SCOMM_Comm made = SCOMM_COMM_NULL;
  const int last = rank_ == 0 ? 0 : size_ - 1;
  EXPECT_EQ(error_class_of(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, 0, last, 1, &made)),
            SCOMM_ERR_ARG);
  EXPECT_EQ(made, SCOMM_COMM_NULL);
  ASSERT_EQ(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, 0, size_ - 1, 1, &made), SCOMM_SUCCESS);
  int value = rank_ + 1, sum = 0;
  ASSERT_EQ(SCOMM_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, made), SCOMM_SUCCESS);
  EXPECT_EQ(sum, size_ * (size_ + 1) / 2);
  SCOMM_Comm_free(&made);
  expect_world_still_works();
}

// Ranges that differ but share no member are one creation (each half creating its own half, each
// rank itself); the same range written with another `last` is the same. Ranges that share some
// members fail everywhere.
TEST_F(CollCheckTest, DisjointRangesAreOneCreation) {
  const int half = size_ / 2;
  const bool lower = rank_ < half;
  const auto created = [&](int first, int last, int stride) {
    SCOMM_Comm made = SCOMM_COMM_NULL;
    const int code = SCOMM_Comm_create_range(SCOMM_COMM_WORLD, first, last, stride, &made);
    if (made != SCOMM_COMM_NULL) SCOMM_Comm_free(&made);
    return error_class_of(code);
  };
  EXPECT_EQ(lower ? created(half - 1, 0, -1) : created(half, size_ - 1, 1), SCOMM_SUCCESS);
  EXPECT_EQ(created(rank_, rank_, 1 + rank_), SCOMM_SUCCESS);
  EXPECT_EQ(created(0, size_ - 1 + rank_ % 2, 1 + size_), SCOMM_SUCCESS);  // rank 0 alone
  if (size_ >= 2) {
    EXPECT_EQ(lower ? created(0, half, 1) : created(half, size_ - 1, 1), SCOMM_ERR_ARG);
  }
  expect_world_still_works();
}

// A local creation and a nonblocking collective on the same parent, in opposite orders at even
// and odd members: legal (local creations are ordered among themselves, not with collectives),
// so check mode's agreement on the creation must not take the collective's messages.
TEST_F(CollCheckTest, LocalCreationsNeedNoOrderWithTheParentsCollectives) {
  std::vector<long> in(7), out(7, -1);
  std::iota(in.begin(), in.end(), rank_);
  SCOMM_Request request = SCOMM_REQUEST_NULL;
  SCOMM_Comm made = SCOMM_COMM_NULL;
  const auto start = [&] {
    ASSERT_EQ(
        SCOMM_Iallreduce(in.data(), out.data(), 7, MPI_LONG, MPI_SUM, SCOMM_COMM_WORLD, &request),
        SCOMM_SUCCESS);
  };
  const auto create = [&] {
    ASSERT_EQ(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, 0, size_ - 1, 1, &made), SCOMM_SUCCESS);
  };
  if (rank_ % 2 == 0) {
    start();
    create();
  } else {
    create();
    start();
  }
  ASSERT_EQ(SCOMM_Wait(&request, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(out[i], size_ * i + size_ * (size_ - 1) / 2) << i;
  int value = rank_ + 1, sum = 0;
  ASSERT_EQ(SCOMM_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, made), SCOMM_SUCCESS);
  EXPECT_EQ(sum, size_ * (size_ + 1) / 2);
  SCOMM_Comm_free(&made);
}

// create_range at one member where the others call create_from_group first: the two would take
// each other's derivation slots. Every local creation agrees, so both calls fail everywhere.
TEST_F(CollCheckTest, ARangeAndAGroupInDifferentOrdersFailEverywhere) {
  if (size_ < 2) GTEST_SKIP() << "needs two ranks";
  SCOMM_Group world_group = SCOMM_GROUP_NULL, first_two = SCOMM_GROUP_NULL;
  ASSERT_EQ(SCOMM_Comm_group(SCOMM_COMM_WORLD, &world_group), SCOMM_SUCCESS);
  const int ranks[] = {0, 1};
  ASSERT_EQ(SCOMM_Group_incl(world_group, 2, ranks, &first_two), SCOMM_SUCCESS);
  SCOMM_Comm range = SCOMM_COMM_NULL, pair = SCOMM_COMM_NULL;
  const auto create_range = [&] {
    return SCOMM_Comm_create_range(SCOMM_COMM_WORLD, 0, size_ - 1, 1, &range);
  };
  const auto create_pair = [&] {
    return SCOMM_Comm_create_from_group(SCOMM_COMM_WORLD, first_two, &pair);
  };
  if (rank_ == 0) {
    EXPECT_EQ(error_class_of(create_range()), SCOMM_ERR_ARG);
    EXPECT_EQ(error_class_of(create_pair()), SCOMM_ERR_ARG);
  } else {
    EXPECT_EQ(error_class_of(create_pair()), SCOMM_ERR_ARG);
    EXPECT_EQ(error_class_of(create_range()), SCOMM_ERR_ARG);
  }
  EXPECT_EQ(range, SCOMM_COMM_NULL);
  EXPECT_EQ(pair, SCOMM_COMM_NULL);
  // In the same order they agree.
  ASSERT_EQ(create_pair(), SCOMM_SUCCESS);
  EXPECT_EQ(pair == SCOMM_COMM_NULL, rank_ > 1);
  if (pair != SCOMM_COMM_NULL) {
    int value = rank_ + 1, sum = 0;
    ASSERT_EQ(SCOMM_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, pair), SCOMM_SUCCESS);
    EXPECT_EQ(sum, 3);
    SCOMM_Comm_free(&pair);
  }
  SCOMM_Group_free(&first_two);
  SCOMM_Group_free(&world_group);
  expect_world_still_works();
}

// A group handle invalid at one member: that member reports its own SCOMM_ERR_GROUP, the others
// the disagreement, and none waits for ever.
TEST_F(CollCheckTest, AnInvalidGroupAtOneMemberFailsEveryMember) {
  if (size_ < 2) GTEST_SKIP() << "needs two ranks";
  SCOMM_Group world_group = SCOMM_GROUP_NULL;
  ASSERT_EQ(SCOMM_Comm_group(SCOMM_COMM_WORLD, &world_group), SCOMM_SUCCESS);
  SCOMM_Comm made = SCOMM_COMM_NULL;
  const int code = SCOMM_Comm_create_from_group(SCOMM_COMM_WORLD,
                                                rank_ == 0 ? SCOMM_GROUP_NULL : world_group, &made);
  EXPECT_EQ(error_class_of(code), rank_ == 0 ? SCOMM_ERR_GROUP : SCOMM_ERR_ARG);
  EXPECT_EQ(made, SCOMM_COMM_NULL);
  SCOMM_Group_free(&world_group);
  expect_world_still_works();
}

// A neighborhood all-to-all at one member and an allgather at the others, on a ring.
TEST_F(CollCheckTest, DifferentNeighborhoodCollectivesFailEverywhere) {
  if (size_ < 2) GTEST_SKIP() << "needs two ranks";
  const int dims = size_, periods = 1;
  SCOMM_Comm ring = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Cart_create(SCOMM_COMM_WORLD, 1, &dims, &periods, 0, &ring), SCOMM_SUCCESS);
  const int out[2] = {rank_, rank_};
  int in[2] = {};
  const int code = rank_ == 0 ? SCOMM_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, ring)
                              : SCOMM_Neighbor_allgather(out, 1, MPI_INT, in, 1, MPI_INT, ring);
  EXPECT_EQ(error_class_of(code), SCOMM_ERR_ARG);
  ASSERT_EQ(SCOMM_Neighbor_allgather(out, 1, MPI_INT, in, 1, MPI_INT, ring), SCOMM_SUCCESS);
  EXPECT_EQ(in[0], (rank_ + size_ - 1) % size_);
  EXPECT_EQ(in[1], (rank_ + 1) % size_);
  SCOMM_Comm_free(&ring);
}

TEST_F(CollCheckTest, DifferentBlockSizesFailEverywhere) {
  if (size_ < 2) GTEST_SKIP() << "needs two ranks";
  std::vector<int> in(2, 1), out(2);
  const int count = rank_ == size_ - 1 ? 2 : 1;
  EXPECT_EQ(error_class_of(
                SCOMM_Allreduce(in.data(), out.data(), count, MPI_INT, MPI_SUM, SCOMM_COMM_WORLD)),
            SCOMM_ERR_COUNT);
  // Same count, other type size.
  const MPI_Datatype type = rank_ == 0 ? MPI_DOUBLE : MPI_INT;
  std::vector<double> buffer(2);
  EXPECT_EQ(error_class_of(SCOMM_Bcast(buffer.data(), 1, type, 0, SCOMM_COMM_WORLD)),
            SCOMM_ERR_COUNT);
  expect_world_still_works();
}

TEST_F(CollCheckTest, AnInvalidArgumentAtOneMemberFailsEveryMember) {
  if (size_ < 2) GTEST_SKIP() << "needs two ranks";
  int value = 0;
  const MPI_Datatype type = rank_ == 1 ? MPI_DATATYPE_NULL : MPI_INT;
  // Without the check the other members would wait in the broadcast for rank 1.
  EXPECT_NE(SCOMM_Bcast(&value, 1, type, 0, SCOMM_COMM_WORLD), SCOMM_SUCCESS);
  expect_world_still_works();
}

// Arguments only the root reads, invalid there: the root's own checks fail, and so does every
// other member, which would otherwise send its block to a root that is not receiving it.
TEST_F(CollCheckTest, ArgumentsInvalidAtTheRootAloneFailEveryMember) {
  const std::size_t n = static_cast<std::size_t>(size_);
  std::vector<int> in(n, 1), out(n), counts(n, 1), displs(n);
  std::iota(displs.begin(), displs.end(), 0);
  std::vector<int> negative = counts;
  negative.back() = -1;
  const bool root = rank_ == 0;
  EXPECT_EQ(error_class_of(SCOMM_Gatherv(in.data(), 1, MPI_INT, out.data(),
                                         root ? negative.data() : nullptr, displs.data(), MPI_INT,
                                         0, SCOMM_COMM_WORLD)),
            SCOMM_ERR_COUNT);
  expect_world_still_works();
  EXPECT_EQ(error_class_of(SCOMM_Scatterv(in.data(), counts.data(), root ? nullptr : displs.data(),
                                          MPI_INT, out.data(), 1, MPI_INT, 0, SCOMM_COMM_WORLD)),
            SCOMM_ERR_ARG);
  expect_world_still_works();
  EXPECT_EQ(error_class_of(SCOMM_Reduce(in.data(), root ? SCOMM_IN_PLACE : out.data(), 1, MPI_INT,
                                        MPI_SUM, 0, SCOMM_COMM_WORLD)),
            SCOMM_ERR_BUFFER);
  expect_world_still_works();
}

// A root whose own block is longer sent than it has room for received (a gather's or scatter's
// counts that disagree at the root alone): the root's truncation fails every member before any
// block moves, with scomm's own algorithms and the multilevel ones (whose schedules copy the
// root's block first, and stopped there while the others waited).
TEST_F(CollCheckTest, ARootsOwnBlockThatCannotFitFailsEveryMember) {
  const std::size_t n = static_cast<std::size_t>(size_);
  std::vector<int> in(2 * n, 1), out(2 * n, 0);
  const bool root = rank_ == 0;
  for (const char* algorithm : {"", "multilevel"}) {
    SCOPED_TRACE(algorithm);
    ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
    set_environment_together("SCOMM_COLL_SCATTER", algorithm);
    set_environment_together("SCOMM_COLL_GATHER", algorithm);
    ASSERT_EQ(SCOMM_Init(), SCOMM_SUCCESS);
    SCOMM_Comm_set_errhandler(SCOMM_COMM_WORLD, SCOMM_ERRORS_RETURN);
    EXPECT_EQ(error_class_of(SCOMM_Scatter(in.data(), 2, MPI_INT, out.data(), root ? 1 : 2, MPI_INT,
                                           0, SCOMM_COMM_WORLD)),
              SCOMM_ERR_TRUNCATE);
    expect_world_still_works();
    EXPECT_EQ(error_class_of(SCOMM_Gather(in.data(), root ? 2 : 1, MPI_INT, out.data(), 1, MPI_INT,
                                          0, SCOMM_COMM_WORLD)),
              SCOMM_ERR_TRUNCATE);
    expect_world_still_works();
    // A shorter own block loses nothing: taken, as the base MPIs take it.
    EXPECT_EQ(SCOMM_Gather(in.data(), 1, MPI_INT, out.data(), 2, MPI_INT, 0, SCOMM_COMM_WORLD),
              SCOMM_SUCCESS);
  }
  set_environment_together("SCOMM_COLL_SCATTER", nullptr);
  set_environment_together("SCOMM_COLL_GATHER", nullptr);
}

// Two members with different invalid arguments: every member gets the greater error class.
TEST_F(CollCheckTest, DifferentInvalidArgumentsFailEveryMemberAlike) {
  if (size_ < 2) GTEST_SKIP() << "needs two ranks";
  int value = 0;
  const int count = rank_ == 0 ? -1 : 1;                               // SCOMM_ERR_COUNT (6)
  const MPI_Datatype type = rank_ == 1 ? MPI_DATATYPE_NULL : MPI_INT;  // SCOMM_ERR_TYPE (10)
  EXPECT_EQ(error_class_of(SCOMM_Bcast(&value, count, type, 0, SCOMM_COMM_WORLD)), SCOMM_ERR_TYPE);
  expect_world_still_works();
}

TEST_F(CollCheckTest, DifferentOperationsFailEverywhere) {
  if (size_ < 2) GTEST_SKIP() << "needs two ranks";
  int value = rank_, result = 0;
  const MPI_Op op = rank_ == 0 ? MPI_MAX : MPI_SUM;
  EXPECT_EQ(error_class_of(SCOMM_Allreduce(&value, &result, 1, MPI_INT, op, SCOMM_COMM_WORLD)),
            SCOMM_ERR_OP);
  expect_world_still_works();
}

// Whether an operation commutes picks the schedule (rank order kept or not): members whose
// user-defined operations differ in it would run different schedules.
void add_ints(void* in, void* inout, int* len, MPI_Datatype*) {
  for (int i = 0; i < *len; ++i) static_cast<int*>(inout)[i] += static_cast<int*>(in)[i];
}

TEST_F(CollCheckTest, UserOperationsThatDifferInCommutingFailEverywhere) {
  if (size_ < 2) GTEST_SKIP() << "needs two ranks";
  MPI_Op op = MPI_OP_NULL;
  ASSERT_EQ(MPI_Op_create(add_ints, rank_ == 0 ? 1 : 0, &op), MPI_SUCCESS);
  std::vector<int> in(4096, rank_), out(4096, 0);
  EXPECT_EQ(
      error_class_of(SCOMM_Allreduce(in.data(), out.data(), 4096, MPI_INT, op, SCOMM_COMM_WORLD)),
      SCOMM_ERR_OP);
  expect_world_still_works();
  MPI_Op_free(&op);
}

TEST_F(CollCheckTest, DifferentCountArraysFailEverywhere) {
  if (size_ < 2) GTEST_SKIP() << "needs two ranks";
  std::vector<int> counts(static_cast<std::size_t>(size_), 1);
  if (rank_ == 0) counts.back() = 2;
  std::vector<int> in(static_cast<std::size_t>(size_) + 1, 1), out(2);
  EXPECT_EQ(error_class_of(SCOMM_Reduce_scatter(in.data(), out.data(), counts.data(), MPI_INT,
                                                MPI_SUM, SCOMM_COMM_WORLD)),
            SCOMM_ERR_COUNT);
  expect_world_still_works();
}

// Allgatherv's receive counts are compared in bytes: one member's that differs fails every
// member; the same blocks named by different types pass.
TEST_F(CollCheckTest, AllgathervCountArraysAreComparedInBytes) {
  if (size_ < 2) GTEST_SKIP() << "needs two ranks";
  std::vector<int> counts(static_cast<std::size_t>(size_), 2), displs(counts.size());
  for (std::size_t r = 0; r < displs.size(); ++r) displs[r] = 2 * static_cast<int>(r);
  std::vector<int> mine(2, rank_), all(2 * counts.size(), -1);
  std::vector<int> short_last = counts;
  if (rank_ == 0) short_last.back() = 1;
  EXPECT_EQ(error_class_of(SCOMM_Allgatherv(mine.data(), 2, MPI_INT, all.data(), short_last.data(),
                                            displs.data(), MPI_INT, SCOMM_COMM_WORLD)),
            SCOMM_ERR_COUNT);
  expect_world_still_works();
  // Odd ranks receive pairs (MPI_2INT), one per rank, where the others receive two ints.
  const bool pairs = rank_ % 2 == 1;
  std::vector<int> ones(counts.size(), 1), pair_displs(counts.size());
  for (std::size_t r = 0; r < displs.size(); ++r) pair_displs[r] = static_cast<int>(r);
  ASSERT_EQ(
      SCOMM_Allgatherv(mine.data(), 2, MPI_INT, all.data(), pairs ? ones.data() : counts.data(),
                       pairs ? pair_displs.data() : displs.data(), pairs ? MPI_2INT : MPI_INT,
                       SCOMM_COMM_WORLD),
      SCOMM_SUCCESS);
  for (int r = 0; r < size_; ++r) {
    EXPECT_EQ(all[2 * static_cast<std::size_t>(r)], r);
    EXPECT_EQ(all[2 * static_cast<std::size_t>(r) + 1], r);
  }
}

TEST_F(CollCheckTest, SubcommunicatorsAreCheckedToo) {
  if (size_ < 3) GTEST_SKIP() << "needs three ranks";
  SCOMM_Comm half = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_split(SCOMM_COMM_WORLD, rank_ % 2, rank_, &half), SCOMM_SUCCESS);
  int half_rank = 0, half_size = 0;
  SCOMM_Comm_rank(half, &half_rank);
  SCOMM_Comm_size(half, &half_size);
  int value = 3;
  // Only the even half disagrees (when it has two members).
  const int root = rank_ % 2 == 0 && half_rank == half_size - 1 ? half_size - 1 : 0;
  const int expected = rank_ % 2 == 0 && half_size > 1 ? SCOMM_ERR_ROOT : SCOMM_SUCCESS;
  EXPECT_EQ(error_class_of(SCOMM_Bcast(&value, 1, MPI_INT, root, half)), expected);
  ASSERT_EQ(SCOMM_Comm_free(&half), SCOMM_SUCCESS);
}

TEST(CollCheckEnvironmentTest, AnUnknownSettingIsAnError) {
  set_environment_together("SCOMM_COLL_CHECK", "sometimes");
  EXPECT_EQ(error_class_of(SCOMM_Init()), SCOMM_ERR_ARG);
  set_environment_together("SCOMM_COLL_CHECK", nullptr);
}

// SCOMM_COLL_SEGMENT cuts the pipelined schedules finer: a broadcast down the binary tree in
// segments of 6 ints still delivers every element.
TEST(CollSegmentEnvironmentTest, ShortSegmentsDeliverTheWholeBuffer) {
  set_environment_together("SCOMM_COLL_SEGMENT", "24");
  set_environment_together("SCOMM_COLL_BCAST", "pipelined_tree");
  ASSERT_EQ(SCOMM_Init(), SCOMM_SUCCESS);
  const int root = world_size() - 1;
  std::vector<int> buffer(1000, -1);
  if (world_rank() == root) std::iota(buffer.begin(), buffer.end(), 0);
  EXPECT_EQ(SCOMM_Bcast(buffer.data(), 1000, MPI_INT, root, SCOMM_COMM_WORLD), SCOMM_SUCCESS);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(buffer[static_cast<std::size_t>(i)], i) << i;
  EXPECT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
  set_environment_together("SCOMM_COLL_BCAST", nullptr);
  set_environment_together("SCOMM_COLL_SEGMENT", nullptr);
}

TEST(CollSegmentEnvironmentTest, ABadSegmentIsAnError) {
  for (const char* bad : {"0", "-4", "4k", "abc", "2000000000"}) {
    set_environment_together("SCOMM_COLL_SEGMENT", bad);
    EXPECT_EQ(error_class_of(SCOMM_Init()), SCOMM_ERR_ARG) << bad;
  }
  set_environment_together("SCOMM_COLL_SEGMENT", nullptr);
  ASSERT_EQ(SCOMM_Init(), SCOMM_SUCCESS);  // nothing was left half-initialized
  EXPECT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
}

}  // namespace
