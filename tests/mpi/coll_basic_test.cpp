// Barrier, broadcast and allreduce against MPI's own on the same members, for every algorithm,
// root, size, in-place form and a non-commutative user operation; nonblocking collectives on
// overlapping communicators completing in any order; bad input.
#include <algorithm>
#include <array>
#include <chrono>
#include <numeric>
#include <thread>

#include "coll_test_support.hpp"
#include "scomm/context/tag_layout.hpp"
#include "smpi_defects.hpp"

namespace {

class BcastTest : public CollTest {
  const char* variable() const override { return "SCOMM_COLL_BCAST"; }
};

TEST_P(BcastTest, EqualsMpiBcastForEveryRootAndSize) {
  for (const CommPair& pair : pairs_) {
    const int size = size_of(pair.mpi), rank = rank_of(pair.mpi);
    for (const int count : test_counts())
      for (const int root : test_roots(size)) {
        const auto mine = pattern(rank, static_cast<std::size_t>(count), root);
        std::vector<int> expected = mine, got = mine;
        MPI_Bcast(expected.data(), count, MPI_INT, root, pair.mpi);
        ASSERT_EQ(SCOMM_Bcast(got.data(), count, MPI_INT, root, pair.scomm), SCOMM_SUCCESS);
        ASSERT_EQ(got, expected) << pair.name << " count " << count << " root " << root;
      }
  }
}

// Vectors the pipelined tree cuts in segments of their own: one just above an eager message
// (two of 2 KiB and a short last one, on ranks with cores of their own) and one beyond 256 KiB
// (two of 128 KiB and a short last one).
TEST_P(BcastTest, EqualsMpiBcastForVectorsCutInSegments) {
  for (const int count : {1500, 70000})  // 6,000 and 280,000 bytes
    for (const CommPair& pair : pairs_) {
      const int size = size_of(pair.mpi), rank = rank_of(pair.mpi);
      for (const int root : {0, size - 1}) {
        const auto mine = pattern(rank, static_cast<std::size_t>(count), root + 5);
        std::vector<int> expected = mine, got = mine;
        MPI_Bcast(expected.data(), count, MPI_INT, root, pair.mpi);
        ASSERT_EQ(SCOMM_Bcast(got.data(), count, MPI_INT, root, pair.scomm), SCOMM_SUCCESS);
        ASSERT_EQ(got, expected) << pair.name << " count " << count << " root " << root;
      }
    }
}

// A repeated blocking bcast is replayed by blocking MPI calls alone (ScheduleRun::replay_direct):
// it reads its buffer anew, and steps aside for the kept run where a nonblocking collective is
// in flight or the matching engine holds a receive of the communicator.
TEST_P(BcastTest, ReplayedTransfersFollowTheDataAndStepAsideForTheEngine) {
  constexpr int kCount = 5;
  std::vector<int> buffer(kCount), expected(kCount);
  for (const CommPair& pair : pairs_) {
    const int size = size_of(pair.mpi), rank = rank_of(pair.mpi), root = size - 1;
    check_replays_beside_the_engine(pair, [&](int salt, const char* what) {
      const auto mine = pattern(rank, kCount, salt);
      std::copy(mine.begin(), mine.end(), buffer.begin());
      expected = mine;
      MPI_Bcast(expected.data(), kCount, MPI_INT, root, pair.mpi);
      ASSERT_EQ(SCOMM_Bcast(buffer.data(), kCount, MPI_INT, root, pair.scomm), SCOMM_SUCCESS);
      ASSERT_EQ(buffer, expected) << pair.name << ": " << what << ", salt " << salt;
    });
  }
}

TEST_P(BcastTest, NonblockingAndStridedDatatype) {
  MPI_Datatype every_other = MPI_DATATYPE_NULL;
  MPI_Type_vector(3, 1, 2, MPI_INT, &every_other);  // ints 0, 2, 4 of 5 (extent 5 ints)
  MPI_Type_commit(&every_other);
  for (const CommPair& pair : pairs_) {
    const int size = size_of(pair.mpi), rank = rank_of(pair.mpi);
    const int root = size - 1, count = 33;
    const auto mine = pattern(rank, static_cast<std::size_t>(count) * 5, 1);
    std::vector<int> expected = mine, got = mine;
    MPI_Bcast(expected.data(), count, every_other, root, pair.mpi);
    SCOMM_Request request = SCOMM_REQUEST_NULL;
    ASSERT_EQ(SCOMM_Ibcast(got.data(), count, every_other, root, pair.scomm, &request),
              SCOMM_SUCCESS);
    ASSERT_EQ(SCOMM_Wait(&request, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
    EXPECT_EQ(request, SCOMM_REQUEST_NULL);
    ASSERT_EQ(got, expected) << pair.name;
  }
  MPI_Type_free(&every_other);
}

INSTANTIATE_TEST_SUITE_P(Algorithms, BcastTest,
                         ::testing::Values("", "+own-cores", "binomial", "knomial",
                                           "pipelined_tree", "scatter_allgather", "multilevel",
                                           "native"));

class AllreduceTest : public CollTest {
  const char* variable() const override { return "SCOMM_COLL_ALLREDUCE"; }
};

TEST_P(AllreduceTest, EqualsMpiAllreduceForSumsMaximaAndInPlace) {
  for (const CommPair& pair : pairs_) {
    const int rank = rank_of(pair.mpi);
    for (const int count : test_counts()) {
      const auto mine = pattern(rank, static_cast<std::size_t>(count), count);
      std::vector<int> expected(mine.size()), got(mine.size(), -1);
      MPI_Allreduce(mine.data(), expected.data(), count, MPI_INT, MPI_SUM, pair.mpi);
      ASSERT_EQ(SCOMM_Allreduce(mine.data(), got.data(), count, MPI_INT, MPI_SUM, pair.scomm),
                SCOMM_SUCCESS);
      ASSERT_EQ(got, expected) << pair.name << " sum of " << count;

      std::vector<double> values(mine.begin(), mine.end()), max_expected(values.size());
      MPI_Allreduce(values.data(), max_expected.data(), count, MPI_DOUBLE, MPI_MAX, pair.mpi);
      ASSERT_EQ(
          SCOMM_Allreduce(SCOMM_IN_PLACE, values.data(), count, MPI_DOUBLE, MPI_MAX, pair.scomm),
          SCOMM_SUCCESS);
      ASSERT_EQ(values, max_expected) << pair.name << " in-place max of " << count;
    }
  }
}

TEST_P(AllreduceTest, NonCommutativeOperationReducesInRankOrder) {
  const AffineOp affine;
  for (const CommPair& pair : pairs_) {
    const int rank = rank_of(pair.mpi);
    for (const int count : {1, 5, 300}) {
      const auto mine = affine_pattern(rank, static_cast<std::size_t>(count));
      std::vector<int> expected(mine.size()), got(mine.size());
      MPI_Allreduce(mine.data(), expected.data(), count, affine.type, affine.op, pair.mpi);
      ASSERT_EQ(SCOMM_Allreduce(mine.data(), got.data(), count, affine.type, affine.op, pair.scomm),
                SCOMM_SUCCESS);
      ASSERT_EQ(got, expected) << pair.name << " count " << count;
    }
  }
}

// Calls with the same count share a cached schedule and reuse the last blocking call's run: a
// change of operation or of type (predefined or derived) between them must still be followed.
TEST_P(AllreduceTest, RepeatedCallsFollowChangedOperationsAndTypes) {
  const AffineOp affine;
  const int count = 5;
  for (const CommPair& pair : pairs_) {
    const int rank = rank_of(pair.mpi);
    for (int repeat = 0; repeat < 2; ++repeat) {
      for (const MPI_Op op : {MPI_SUM, MPI_MAX}) {
        const auto mine = pattern(rank, count, repeat);
        std::vector<int> expected(mine.size()), got(mine.size(), -1);
        MPI_Allreduce(mine.data(), expected.data(), count, MPI_INT, op, pair.mpi);
        ASSERT_EQ(SCOMM_Allreduce(mine.data(), got.data(), count, MPI_INT, op, pair.scomm),
                  SCOMM_SUCCESS);
        ASSERT_EQ(got, expected) << pair.name << " repeat " << repeat;
      }
      const auto pairs = affine_pattern(rank, count);
      std::vector<int> expected(pairs.size()), got(pairs.size());
      MPI_Allreduce(pairs.data(), expected.data(), count, affine.type, affine.op, pair.mpi);
      ASSERT_EQ(
          SCOMM_Allreduce(pairs.data(), got.data(), count, affine.type, affine.op, pair.scomm),
          SCOMM_SUCCESS);
      ASSERT_EQ(got, expected) << pair.name << " affine, repeat " << repeat;
    }
  }
}

// A blocking call that repeats the last one exactly is replayed (coll/replay.hpp): it must read
// its buffers anew, and any change in between -- of an argument, of the operation, of the
// schedule by a nonblocking call, of a derived type freed and made again -- must be followed.
TEST_P(AllreduceTest, ReplayedCallsReadTheirBuffersAnewAndFollowEveryChange) {
  const int count = 6;
  std::vector<int> in(count), out(count), expected(count);
  for (const CommPair& pair : pairs_) {
    const int rank = rank_of(pair.mpi);
    const auto check = [&](int salt, MPI_Op op, int n, MPI_Datatype type, const char* what) {
      const auto mine = pattern(rank, count, salt);
      std::copy(mine.begin(), mine.end(), in.begin());
      MPI_Allreduce(in.data(), expected.data(), n, type, op, pair.mpi);
      std::fill(out.begin(), out.end(), -1);
      ASSERT_EQ(SCOMM_Allreduce(in.data(), out.data(), n, type, op, pair.scomm), SCOMM_SUCCESS);
      ASSERT_TRUE(std::equal(out.begin(), out.begin() + n, expected.begin()))
          << pair.name << ": " << what << " salt " << salt;
    };
    for (int salt = 0; salt < 3; ++salt) check(salt, MPI_SUM, count, MPI_INT, "repeated");
    check(3, MPI_MAX, count, MPI_INT, "operation changed");
    check(4, MPI_MAX, count, MPI_INT, "repeated after the change");
    check(5, MPI_SUM, count - 2, MPI_INT, "count changed");
    SCOMM_Request request = SCOMM_REQUEST_NULL;  // a nonblocking call rebuilds the schedule
    ASSERT_EQ(
        SCOMM_Iallreduce(in.data(), out.data(), count, MPI_INT, MPI_MIN, pair.scomm, &request),
        SCOMM_SUCCESS);
    ASSERT_EQ(SCOMM_Wait(&request, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
    check(6, MPI_SUM, count - 2, MPI_INT, "repeated after a nonblocking call");
    for (const int width : {2, 3}) {  // the same bcast on a derived type made again
      MPI_Datatype block = MPI_DATATYPE_NULL;
      MPI_Type_contiguous(width, MPI_INT, &block);
      MPI_Type_commit(&block);
      for (int salt = 7; salt < 9; ++salt) {
        const auto mine = pattern(rank, count, salt);
        std::copy(mine.begin(), mine.end(), in.begin());
        expected = mine;
        MPI_Bcast(expected.data(), 2, block, 0, pair.mpi);
        ASSERT_EQ(SCOMM_Bcast(in.data(), 2, block, 0, pair.scomm), SCOMM_SUCCESS);
        ASSERT_EQ(in, expected) << pair.name << " derived type of width " << width;
      }
      MPI_Type_free(&block);
    }
    // Only the buffers change: the kept run is bound to them anew (its resolved rounds with it),
    // and a buffer of an earlier call is left alone.
    std::vector<int> other_in(count), other_out(count);
    for (int salt = 11; salt < 15; ++salt) {
      const bool other = salt % 2 == 1;
      std::vector<int>& source = other ? other_in : in;
      std::vector<int>& target = other ? other_out : out;
      std::vector<int>& idle = other ? out : other_out;
      const auto mine = pattern(rank, count, salt);
      std::copy(mine.begin(), mine.end(), source.begin());
      MPI_Allreduce(mine.data(), expected.data(), count, MPI_INT, MPI_SUM, pair.mpi);
      std::fill(idle.begin(), idle.end(), -7);
      ASSERT_EQ(SCOMM_Allreduce(source.data(), target.data(), count, MPI_INT, MPI_SUM, pair.scomm),
                SCOMM_SUCCESS);
      ASSERT_EQ(target, expected) << pair.name << " other buffers, salt " << salt;
      ASSERT_EQ(idle, std::vector<int>(count, -7)) << pair.name << " an earlier call's buffer";
    }
    // In place: the input is the output, read anew each time.
    for (int salt = 9; salt < 11; ++salt) {
      const auto mine = pattern(rank, count, salt);
      std::copy(mine.begin(), mine.end(), out.begin());
      MPI_Allreduce(mine.data(), expected.data(), count, MPI_INT, MPI_SUM, pair.mpi);
      ASSERT_EQ(SCOMM_Allreduce(SCOMM_IN_PLACE, out.data(), count, MPI_INT, MPI_SUM, pair.scomm),
                SCOMM_SUCCESS);
      ASSERT_EQ(out, expected) << pair.name << " in place, salt " << salt;
    }
  }
}

// MPI lets a communicator be freed under a pending nonblocking collective, which completes all
// the same (Open MPI's own, which "native" runs, crashed in its progress: scomm keeps the MPI
// twin until then).
TEST_P(AllreduceTest, APendingAllreduceCompletesOnAFreedCommunicator) {
  for (int round = 0; round < 20; ++round) {
    SCOMM_Comm dup = SCOMM_COMM_NULL;
    ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &dup), SCOMM_SUCCESS);
    const std::vector<int> mine(3000, world_rank() + round);
    std::vector<int> got(mine.size(), -1);
    // A blocking call first, which makes the native algorithm's MPI twin.
    ASSERT_EQ(SCOMM_Allreduce(mine.data(), got.data(), 3000, MPI_INT, MPI_SUM, dup), SCOMM_SUCCESS);
    SCOMM_Request request = SCOMM_REQUEST_NULL;
    ASSERT_EQ(SCOMM_Iallreduce(mine.data(), got.data(), 3000, MPI_INT, MPI_SUM, dup, &request),
              SCOMM_SUCCESS);
    ASSERT_EQ(SCOMM_Comm_free(&dup), SCOMM_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);
    ASSERT_EQ(SCOMM_Wait(&request, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
    const int p = world_size();
    EXPECT_EQ(got, std::vector<int>(mine.size(), p * (p - 1) / 2 + p * round));
  }
}

// Starting a nonblocking collective is local: members may start those of two communicators in
// opposite orders, and exchange messages before completing them (a forced native start once
// waited there for every member, to make the communicator's MPI twin, and hung).
TEST_P(AllreduceTest, NonblockingStartsWaitForNoOtherMember) {
  const int p = world_size(), rank = world_rank();
  SCOMM_Comm forward = SCOMM_COMM_NULL, backward = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, 0, p - 1, 1, &forward), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, p - 1, 0, -1, &backward), SCOMM_SUCCESS);
  const int values[2] = {1, 10};
  int sums[2] = {0, 0};
  SCOMM_Request requests[2] = {SCOMM_REQUEST_NULL, SCOMM_REQUEST_NULL};
  for (const int k : rank % 2 == 0 ? std::array{0, 1} : std::array{1, 0})
    ASSERT_EQ(SCOMM_Iallreduce(&values[k], &sums[k], 1, MPI_INT, MPI_SUM,
                               k == 0 ? forward : backward, &requests[k]),
              SCOMM_SUCCESS);
  int from = -1;
  ASSERT_EQ(SCOMM_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % p, 5, &from, 1, MPI_INT,
                           (rank + p - 1) % p, 5, SCOMM_COMM_WORLD, SCOMM_STATUS_IGNORE),
            SCOMM_SUCCESS);
  EXPECT_EQ(from, (rank + p - 1) % p);
  ASSERT_EQ(SCOMM_Waitall(2, requests, SCOMM_STATUSES_IGNORE), SCOMM_SUCCESS);
  EXPECT_EQ(sums[0], p);
  EXPECT_EQ(sums[1], 10 * p);
  SCOMM_Comm_free(&forward);
  SCOMM_Comm_free(&backward);
}

INSTANTIATE_TEST_SUITE_P(Algorithms, AllreduceTest,
                         ::testing::Values("", "recursive_doubling", "rabenseifner", "ring",
                                           "multilevel", "native"));

class BarrierTest : public CollTest {
  const char* variable() const override { return "SCOMM_COLL_BARRIER"; }
};

// The barrier needs no other traffic: synchronous sends to every rank, posted before it and
// matched only by receives also posted before it, stay pending across it and complete after.
TEST_P(BarrierTest, CompletesBesidePendingSynchronousSends) {
  for (int repeat = 0; repeat < 3; ++repeat) {
    std::vector<SCOMM_Request> sends;
    for (int peer = 0; peer < world_size_; ++peer) {
      sends.push_back(SCOMM_REQUEST_NULL);
      ASSERT_EQ(
          SCOMM_Issend(&world_rank_, 1, MPI_INT, peer, repeat, SCOMM_COMM_WORLD, &sends.back()),
          SCOMM_SUCCESS);
    }
    // Ssend: the message is matched only once the receiver posts; the barrier must not need it.
    std::vector<int> from(static_cast<std::size_t>(world_size_));
    std::vector<SCOMM_Request> receives;
    for (int peer = 0; peer < world_size_; ++peer) {
      receives.push_back(SCOMM_REQUEST_NULL);
      SCOMM_Irecv(&from[static_cast<std::size_t>(peer)], 1, MPI_INT, peer, repeat, SCOMM_COMM_WORLD,
                  &receives.back());
    }
    ASSERT_EQ(SCOMM_Barrier(SCOMM_COMM_WORLD), SCOMM_SUCCESS);
    ASSERT_EQ(SCOMM_Waitall(world_size_, receives.data(), SCOMM_STATUSES_IGNORE), SCOMM_SUCCESS);
    ASSERT_EQ(SCOMM_Waitall(world_size_, sends.data(), SCOMM_STATUSES_IGNORE), SCOMM_SUCCESS);
    std::vector<int> expected(from.size());
    std::iota(expected.begin(), expected.end(), 0);
    ASSERT_EQ(from, expected);
  }
  SCOMM_Request request = SCOMM_REQUEST_NULL;
  ASSERT_EQ(SCOMM_Ibarrier(SCOMM_COMM_WORLD, &request), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Wait(&request, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
}

// The barrier synchronizes: a rank that has not entered yet sees nobody leave. The late rank
// polls for the note every other rank sends (through MPI itself) once it has left; only then
// does it enter. The other ranks' notes must all arrive after that, none during the wait.
TEST_P(BarrierTest, NobodyLeavesBeforeTheLastRankEnters) {
  if (world_size_ == 1) GTEST_SKIP() << "needs two ranks";
  constexpr int kNoteTag = 4242;
  for (const int late : {world_size_ - 1, 0}) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (world_rank_ != late) {
      ASSERT_EQ(SCOMM_Barrier(SCOMM_COMM_WORLD), SCOMM_SUCCESS);
      MPI_Send(&world_rank_, 1, MPI_INT, late, kNoteTag, MPI_COMM_WORLD);
      continue;
    }
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
    int early = 0;
    while (!early && std::chrono::steady_clock::now() < until)
      MPI_Iprobe(MPI_ANY_SOURCE, kNoteTag, MPI_COMM_WORLD, &early, MPI_STATUS_IGNORE);
    EXPECT_FALSE(early) << "a rank left the barrier before rank " << late << " entered it";
    ASSERT_EQ(SCOMM_Barrier(SCOMM_COMM_WORLD), SCOMM_SUCCESS);
    for (int note = 0; note < world_size_ - 1; ++note)
      MPI_Recv(&early, 1, MPI_INT, MPI_ANY_SOURCE, kNoteTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

// MPI's progress rule: a process blocked in a collective advances its pending operations. Rank 0
// sits in the barrier with its idup pending while the others wait for that idup, which needs rank
// 0's part, before they come to the barrier (a native barrier once blocked inside MPI_Barrier).
TEST_P(BarrierTest, APendingIdupAdvancesWhileARankSitsInTheBarrier) {
  if (kOnSmpi && GetParam() == "native")
    GTEST_SKIP() << "under SMPI a blocking native call keeps MPI's blocking form (collective.hpp)";
  for (int repeat = 0; repeat < 3; ++repeat) {
    SCOMM_Comm dup = SCOMM_COMM_NULL;
    SCOMM_Request request = SCOMM_REQUEST_NULL;
    ASSERT_EQ(SCOMM_Comm_idup(SCOMM_COMM_WORLD, &dup, &request), SCOMM_SUCCESS);
    const bool first_in_barrier = world_rank_ == 0;
    const int barrier_before = first_in_barrier ? SCOMM_Barrier(SCOMM_COMM_WORLD) : SCOMM_SUCCESS;
    ASSERT_EQ(SCOMM_Wait(&request, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
    const int barrier_after = first_in_barrier ? SCOMM_SUCCESS : SCOMM_Barrier(SCOMM_COMM_WORLD);
    EXPECT_EQ(barrier_before, SCOMM_SUCCESS);
    EXPECT_EQ(barrier_after, SCOMM_SUCCESS);
    int size = 0;
    ASSERT_EQ(SCOMM_Comm_size(dup, &size), SCOMM_SUCCESS);
    EXPECT_EQ(size, world_size_);
    ASSERT_EQ(SCOMM_Comm_free(&dup), SCOMM_SUCCESS);
  }
}

INSTANTIATE_TEST_SUITE_P(Algorithms, BarrierTest,
                         ::testing::Values("", "dissemination", "linear", "multilevel", "native"));

class CollConcurrencyTest : public ScommTest {};

// The Janus pattern: overlapping groups of two neighbours (rank r is in {r-1, r} and {r, r+1}),
// a nonblocking broadcast and allreduce on each and on the world, all in flight together, waited
// for in an order that differs between ranks.
TEST_F(CollConcurrencyTest, OverlappingNonblockingCollectivesCompleteInAnyOrder) {
  for (int repeat = 0; repeat < 5; ++repeat) {
    std::vector<SCOMM_Comm> pairs;  // rank r's pair {r, r+1} is made by all, in the same order
    SCOMM_Comm left = SCOMM_COMM_NULL, right = SCOMM_COMM_NULL;
    for (int first = 0; first + 1 < world_size_; ++first) {
      SCOMM_Comm made = SCOMM_COMM_NULL;
      ASSERT_EQ(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, first, first + 1, 1, &made),
                SCOMM_SUCCESS);
      if (first == world_rank_ - 1) left = made;
      if (first == world_rank_) right = made;
    }
    std::vector<SCOMM_Request> requests;
    std::vector<int> values(6, -1);
    auto start = [&](SCOMM_Comm comm, int slot) {
      if (comm == SCOMM_COMM_NULL) return;
      int rank = 0;
      SCOMM_Comm_rank(comm, &rank);
      values[static_cast<std::size_t>(slot)] =
          rank == 0 ? 1000 * repeat + 10 * world_rank_ + slot : -1;
      requests.push_back(SCOMM_REQUEST_NULL);
      ASSERT_EQ(SCOMM_Ibcast(&values[static_cast<std::size_t>(slot)], 1, MPI_INT, 0, comm,
                             &requests.back()),
                SCOMM_SUCCESS);
      requests.push_back(SCOMM_REQUEST_NULL);
      ASSERT_EQ(SCOMM_Iallreduce(&world_rank_, &values[static_cast<std::size_t>(slot) + 1], 1,
                                 MPI_INT, MPI_SUM, comm, &requests.back()),
                SCOMM_SUCCESS);
    };
    start(left, 0);
    start(right, 2);
    start(SCOMM_COMM_WORLD, 4);
    // Odd ranks wait newest first, even ranks oldest first, every third one by Waitall.
    if (world_rank_ % 3 == 2) {
      ASSERT_EQ(
          SCOMM_Waitall(static_cast<int>(requests.size()), requests.data(), SCOMM_STATUSES_IGNORE),
          SCOMM_SUCCESS);
    } else {
      for (std::size_t i = 0; i < requests.size(); ++i) {
        const std::size_t k = world_rank_ % 2 ? requests.size() - 1 - i : i;
        ASSERT_EQ(SCOMM_Wait(&requests[k], SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
      }
    }
    if (left != SCOMM_COMM_NULL) {
      EXPECT_EQ(values[0], 1000 * repeat + 10 * (world_rank_ - 1) + 2);  // left's root: r - 1
      EXPECT_EQ(values[1], 2 * world_rank_ - 1);
    }
    if (right != SCOMM_COMM_NULL) {
      EXPECT_EQ(values[2], 1000 * repeat + 10 * world_rank_ + 2);
      EXPECT_EQ(values[3], 2 * world_rank_ + 1);
    }
    EXPECT_EQ(values[4], 1000 * repeat + 4);
    EXPECT_EQ(values[5], world_size_ * (world_size_ - 1) / 2);
    if (left != SCOMM_COMM_NULL) SCOMM_Comm_free(&left);
    if (right != SCOMM_COMM_NULL) SCOMM_Comm_free(&right);
  }
}

// A blocking receive must progress a nonblocking broadcast the sender depends on: rank 1 waits
// for the broadcast before it sends, and the tree may route the broadcast through rank 0.
// Recursive splitting: communicators of a few shapes made and freed again and again, each
// running collectives once (schedules shared between communicators of one shape, and a shape's
// schedule never reaching another). The world in blocks of k ranks from a moving offset, so that
// a rank's rank in blocks of one size changes from step to step; results checked against values
// computed here.
TEST_F(CollConcurrencyTest, FreshCommunicatorsOfRepeatedShapesComputeRightResults) {
  for (int step = 0; step < 90; ++step) {
    const int k = 1 + (step / 3) % world_size_, offset = step % k;
    const bool head = world_rank_ < offset;  // the short block before the offset
    const int first = head ? 0 : offset + (world_rank_ - offset) / k * k;
    const int last = head ? offset - 1 : std::min(first + k - 1, world_size_ - 1);
    SCOMM_Comm half = SCOMM_COMM_NULL;
    ASSERT_EQ(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, first, last, 1, &half), SCOMM_SUCCESS);
    const int size = last - first + 1, root = step % size;
    long sum = 0;
    const long mine = world_rank_ + step;
    ASSERT_EQ(SCOMM_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, half), SCOMM_SUCCESS);
    long expected = 0;
    for (int r = first; r <= last; ++r) expected += r + step;
    EXPECT_EQ(sum, expected) << "step " << step;
    std::vector<int> data(3 + step % 5, world_rank_ == first + root ? step : -1);
    SCOMM_Request request = SCOMM_REQUEST_NULL;
    ASSERT_EQ(
        SCOMM_Ibcast(data.data(), static_cast<int>(data.size()), MPI_INT, root, half, &request),
        SCOMM_SUCCESS);
    ASSERT_EQ(SCOMM_Wait(&request, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
    EXPECT_EQ(data, std::vector<int>(data.size(), step)) << "step " << step;
    int prefix = 0;
    const int one = 1;
    ASSERT_EQ(SCOMM_Scan(&one, &prefix, 1, MPI_INT, MPI_SUM, half), SCOMM_SUCCESS);
    EXPECT_EQ(prefix, world_rank_ - first + 1) << "step " << step;
    ASSERT_EQ(SCOMM_Comm_free(&half), SCOMM_SUCCESS);
  }
}

TEST_F(CollConcurrencyTest, BlockingPointToPointProgressesCollectivesInFlight) {
  if (world_size_ < 2) GTEST_SKIP() << "needs two ranks";
  for (const int root : test_roots(world_size_)) {
    int value = world_rank_ == root ? 42 : 0;
    SCOMM_Request request = SCOMM_REQUEST_NULL;
    ASSERT_EQ(SCOMM_Ibcast(&value, 1, MPI_INT, root, SCOMM_COMM_WORLD, &request), SCOMM_SUCCESS);
    int token = 0;
    if (world_rank_ == 0) {
      ASSERT_EQ(SCOMM_Recv(&token, 1, MPI_INT, 1, 7, SCOMM_COMM_WORLD, SCOMM_STATUS_IGNORE),
                SCOMM_SUCCESS);
      EXPECT_EQ(token, 42);
    }
    ASSERT_EQ(SCOMM_Wait(&request, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
    if (world_rank_ == 1) {
      ASSERT_EQ(SCOMM_Send(&value, 1, MPI_INT, 0, 7, SCOMM_COMM_WORLD), SCOMM_SUCCESS);
    }
    EXPECT_EQ(value, 42);
  }
}

// A replayed blocking collective polls while a receive of any tag waits on another communicator:
// rank 1's synchronous send there completes only once rank 0's matching engine has taken it,
// while rank 0 sits in the collective waiting for rank 1 (a replay blocked inside MPI would hang
// there). Broadcasts from rank 1 (one transfer at two ranks, rounds at more) and allreduces (an
// exchange at two ranks).
TEST_F(CollConcurrencyTest, ReplayedCollectivesProgressReceivesOfAnyTagElsewhere) {
  if (world_size_ < 2) GTEST_SKIP() << "needs two ranks";
  SCOMM_Comm other = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &other), SCOMM_SUCCESS);
  for (const bool bcast : {true, false})
    for (int call = 0; call < 4; ++call) {  // the first builds the schedule, the others replay it
      const bool waiting = call == 3;
      int token = -1;
      SCOMM_Request engine = SCOMM_REQUEST_NULL;
      if (waiting && world_rank_ == 0) {
        ASSERT_EQ(SCOMM_Irecv(&token, 1, MPI_INT, 1, SCOMM_ANY_TAG, other, &engine), 0);
      }
      if (waiting && world_rank_ == 1) {
        const int sent = 77;
        ASSERT_EQ(SCOMM_Ssend(&sent, 1, MPI_INT, 0, 5, other), SCOMM_SUCCESS);
      }
      int value = world_rank_ == 1 ? 100 + call : -1, sum = -1;
      if (bcast) {
        ASSERT_EQ(SCOMM_Bcast(&value, 1, MPI_INT, 1, SCOMM_COMM_WORLD), SCOMM_SUCCESS);
        EXPECT_EQ(value, 100 + call) << "call " << call;
      } else {
        ASSERT_EQ(SCOMM_Allreduce(&call, &sum, 1, MPI_INT, MPI_SUM, SCOMM_COMM_WORLD), 0);
        EXPECT_EQ(sum, call * world_size_) << "call " << call;
      }
      if (engine != SCOMM_REQUEST_NULL) {
        ASSERT_EQ(SCOMM_Wait(&engine, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
        EXPECT_EQ(token, 77);
      }
    }
  ASSERT_EQ(SCOMM_Comm_free(&other), SCOMM_SUCCESS);
}

// Roots whose broadcasts return before the others have received them (scomm copies mid-size
// collective sends and lets them go: SCOMM_DETACHED_SENDS) reuse their buffer at once: each of
// more broadcasts than there are slots for such copies overwrites the root's buffer, sized
// around the limits, while the other ranks are still asleep outside MPI.
TEST_F(CollConcurrencyTest, RootsReuseTheirBufferWhileTheirBroadcastsAreInFlight) {
  if (world_size_ < 2) GTEST_SKIP() << "needs two ranks";
  constexpr int kBroadcasts = 150;  // above the 64 slots
  const std::vector<int> sizes = {256 / 4, 260 / 4, 1024, 4096 / 4, 4100 / 4};
  const auto value = [](int i, std::size_t k) { return 7 * i + static_cast<int>(k); };
  std::vector<int> buffer(4100 / 4);
  std::vector<int> wrong;  // broadcasts that delivered other data (every rank makes all calls)
  if (world_rank_ != 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  for (int i = 0; i < kBroadcasts; ++i) {
    const int count = sizes[static_cast<std::size_t>(i) % sizes.size()];
    if (world_rank_ == 0)
      for (std::size_t k = 0; k < buffer.size(); ++k) buffer[k] = value(i, k);
    else
      std::fill(buffer.begin(), buffer.end(), -1);
    ASSERT_EQ(SCOMM_Bcast(buffer.data(), count, MPI_INT, 0, SCOMM_COMM_WORLD), SCOMM_SUCCESS);
    for (std::size_t k = 0; k < static_cast<std::size_t>(count); ++k)
      if (buffer[k] != value(i, k)) {
        wrong.push_back(i);
        break;
      }
  }
  EXPECT_EQ(wrong, std::vector<int>{}) << "broadcasts with other data than their root's";
}

// A communicator has 192 internal tags, one per collective in turn. A collective whose tag a
// collective 192 calls before still holds here (in flight here, done at the members it needs
// nothing more from) waits for it: failing instead left the others' messages to the collective
// that took the tag 192 calls later. Here the root's broadcasts complete at once, the others'
// stay in flight until after the next one.
TEST_F(CollConcurrencyTest, ACollectiveWaitsForItsTagHeldByOneStartedBefore) {
  constexpr int kTags = scomm::context::TagLayout::kSequencedTags;
  SCOMM_Comm comm = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &comm), SCOMM_SUCCESS);
  SCOMM_Comm_set_errhandler(comm, SCOMM_ERRORS_RETURN);
  const bool root = world_rank_ == 0;
  std::vector<int> values(kTags, -1);
  std::vector<SCOMM_Request> requests(kTags, SCOMM_REQUEST_NULL);
  for (int i = 0; i < kTags; ++i) {
    if (root) values[static_cast<std::size_t>(i)] = i;
    ASSERT_EQ(SCOMM_Ibcast(&values[static_cast<std::size_t>(i)], 1, MPI_INT, 0, comm,
                           &requests[static_cast<std::size_t>(i)]),
              SCOMM_SUCCESS);
  }
  if (root) {
    ASSERT_EQ(SCOMM_Waitall(kTags, requests.data(), SCOMM_STATUSES_IGNORE), SCOMM_SUCCESS);
  }
  int late = root ? 1000 : -1;
  ASSERT_EQ(SCOMM_Bcast(&late, 1, MPI_INT, 0, comm), SCOMM_SUCCESS);
  EXPECT_EQ(late, 1000);
  ASSERT_EQ(SCOMM_Waitall(kTags, requests.data(), SCOMM_STATUSES_IGNORE), SCOMM_SUCCESS);
  for (int i = 0; i < kTags; ++i) EXPECT_EQ(values[static_cast<std::size_t>(i)], i);
  for (int call = 0; call <= kTags + 2; ++call) {
    int value = root ? 5000 + call : -1;
    ASSERT_EQ(SCOMM_Bcast(&value, 1, MPI_INT, 0, comm), SCOMM_SUCCESS);
    ASSERT_EQ(value, 5000 + call) << "call " << call;
  }
  SCOMM_Comm_free(&comm);
}

// One collective left in flight for long holds its tag until it is done, not until it is
// completed: the collectives that take the tag again run meanwhile.
TEST_F(CollConcurrencyTest, ACollectiveLeftInFlightHoldsItsTagUntilItIsDone) {
  constexpr int kTags = scomm::context::TagLayout::kSequencedTags;
  SCOMM_Comm comm = SCOMM_COMM_NULL, copy = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &comm), SCOMM_SUCCESS);
  SCOMM_Comm_set_errhandler(comm, SCOMM_ERRORS_RETURN);
  SCOMM_Request pending[2] = {SCOMM_REQUEST_NULL, SCOMM_REQUEST_NULL};
  ASSERT_EQ(SCOMM_Ibarrier(comm, &pending[0]), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_idup(comm, &copy, &pending[1]), SCOMM_SUCCESS);
  for (int call = 0; call < 2 * kTags + 3; ++call) {
    int sum = 0;
    const int one = 1;
    ASSERT_EQ(SCOMM_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm), SCOMM_SUCCESS) << call;
    ASSERT_EQ(sum, world_size_);
  }
  ASSERT_EQ(SCOMM_Waitall(2, pending, SCOMM_STATUSES_IGNORE), SCOMM_SUCCESS);
  int size = 0;
  SCOMM_Comm_size(copy, &size);
  EXPECT_EQ(size, world_size_);
  SCOMM_Comm_free(&copy);
  SCOMM_Comm_free(&comm);
}

class CollErrorsTest : public ScommTest {
 protected:
  void SetUp() override {
    ScommTest::SetUp();
    SCOMM_Comm_set_errhandler(SCOMM_COMM_WORLD, SCOMM_ERRORS_RETURN);
  }
};

TEST_F(CollErrorsTest, BadArgumentsAreReportedWithTheirClass) {
  int value = 0, other = 0;
  EXPECT_EQ(error_class_of(SCOMM_Bcast(&value, 1, MPI_INT, world_size_, SCOMM_COMM_WORLD)),
            SCOMM_ERR_ROOT);
  EXPECT_EQ(error_class_of(SCOMM_Bcast(&value, 1, MPI_INT, -1, SCOMM_COMM_WORLD)), SCOMM_ERR_ROOT);
  EXPECT_EQ(error_class_of(SCOMM_Bcast(&value, -1, MPI_INT, 0, SCOMM_COMM_WORLD)), SCOMM_ERR_COUNT);
  EXPECT_EQ(error_class_of(SCOMM_Bcast(nullptr, 1, MPI_INT, 0, SCOMM_COMM_WORLD)),
            SCOMM_ERR_BUFFER);
  EXPECT_EQ(error_class_of(SCOMM_Bcast(&value, 1, MPI_DATATYPE_NULL, 0, SCOMM_COMM_WORLD)),
            SCOMM_ERR_TYPE);
  EXPECT_EQ(
      error_class_of(SCOMM_Allreduce(&value, &other, 1, MPI_INT, MPI_OP_NULL, SCOMM_COMM_WORLD)),
      SCOMM_ERR_OP);
  EXPECT_EQ(error_class_of(SCOMM_Allreduce(&value, &value, 1, MPI_INT, MPI_SUM, SCOMM_COMM_WORLD)),
            SCOMM_ERR_BUFFER);
  // SCOMM_IN_PLACE where no buffer may be it (MPI_IN_PLACE is an address, (void*)1 in Open MPI).
  EXPECT_EQ(error_class_of(SCOMM_Bcast(SCOMM_IN_PLACE, 1, MPI_INT, 0, SCOMM_COMM_WORLD)),
            SCOMM_ERR_BUFFER);
  EXPECT_EQ(error_class_of(SCOMM_Allreduce(SCOMM_IN_PLACE, SCOMM_IN_PLACE, 1, MPI_INT, MPI_SUM,
                                           SCOMM_COMM_WORLD)),
            SCOMM_ERR_BUFFER);
  EXPECT_EQ(error_class_of(
                SCOMM_Allreduce(&value, SCOMM_IN_PLACE, 1, MPI_INT, MPI_SUM, SCOMM_COMM_WORLD)),
            SCOMM_ERR_BUFFER);
  EXPECT_EQ(
      error_class_of(SCOMM_Scan(&value, SCOMM_IN_PLACE, 1, MPI_INT, MPI_SUM, SCOMM_COMM_WORLD)),
      SCOMM_ERR_BUFFER);
  EXPECT_EQ(error_class_of(SCOMM_Barrier(12345)), SCOMM_ERR_COMM);
  EXPECT_EQ(error_class_of(SCOMM_Ibarrier(SCOMM_COMM_WORLD, nullptr)), SCOMM_ERR_ARG);
  SCOMM_Comm dup = SCOMM_COMM_NULL;
  SCOMM_Comm_dup(SCOMM_COMM_WORLD, &dup);
  const SCOMM_Comm freed = dup;
  SCOMM_Comm_free(&dup);
  EXPECT_EQ(error_class_of(SCOMM_Barrier(freed)), SCOMM_ERR_COMM);
  // Every rank made the same calls, all rejected before communicating: the world still works.
  EXPECT_EQ(SCOMM_Barrier(SCOMM_COMM_WORLD), SCOMM_SUCCESS);
}

// Every member sends a longer block than it has room for (an allgather's or alltoall's counts
// swapped, the same at every member): a truncation at every member before any block moves, so
// none waits for another; a shorter send block loses nothing and is taken, as MPI takes it.
TEST_F(CollErrorsTest, AnOwnBlockThatCannotFitIsATruncationEverywhere) {
  const std::size_t n = static_cast<std::size_t>(world_size_);
  std::vector<int> in(2 * n, world_rank_), out(2 * n, -1);
  EXPECT_EQ(error_class_of(
                SCOMM_Allgather(in.data(), 2, MPI_INT, out.data(), 1, MPI_INT, SCOMM_COMM_WORLD)),
            SCOMM_ERR_TRUNCATE);
  EXPECT_EQ(error_class_of(SCOMM_Alltoall(in.data(), 1, MPI_LONG_LONG, out.data(), 1, MPI_INT,
                                          SCOMM_COMM_WORLD)),
            SCOMM_ERR_TRUNCATE);
  EXPECT_EQ(out, std::vector<int>(2 * n, -1));
  ASSERT_EQ(SCOMM_Allgather(in.data(), 1, MPI_INT, out.data(), 2, MPI_INT, SCOMM_COMM_WORLD),
            SCOMM_SUCCESS);
  for (std::size_t r = 0; r < n; ++r) EXPECT_EQ(out[2 * r], static_cast<int>(r));
  EXPECT_EQ(SCOMM_Barrier(SCOMM_COMM_WORLD), SCOMM_SUCCESS);
}

// A scatter's root whose own room is shorter than the blocks it sends (its counts alone
// disagree; MPI: undefined): the root reports the truncation once every other rank has its
// block, with scomm's algorithms and the multilevel one (which copied the root's block first
// and stopped there, the others waiting).
TEST_F(CollErrorsTest, AScatterRootWhoseOwnBlockCannotFitFailsAlone) {
  const std::size_t n = static_cast<std::size_t>(world_size_);
  std::vector<int> in(2 * n);
  std::iota(in.begin(), in.end(), 0);
  const bool root = world_rank_ == 0;
  for (const char* algorithm : {"", "multilevel"}) {
    SCOPED_TRACE(algorithm);
    ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
    set_environment_together("SCOMM_COLL_SCATTER", algorithm);
    ASSERT_EQ(SCOMM_Init(), SCOMM_SUCCESS);
    SCOMM_Comm_set_errhandler(SCOMM_COMM_WORLD, SCOMM_ERRORS_RETURN);
    std::vector<int> out(2, -1);
    EXPECT_EQ(error_class_of(SCOMM_Scatter(in.data(), 2, MPI_INT, out.data(), root ? 1 : 2, MPI_INT,
                                           0, SCOMM_COMM_WORLD)),
              root ? SCOMM_ERR_TRUNCATE : SCOMM_SUCCESS);
    if (!root) {
      EXPECT_EQ(out, (std::vector<int>{2 * world_rank_, 2 * world_rank_ + 1}));
    }
    EXPECT_EQ(SCOMM_Barrier(SCOMM_COMM_WORLD), SCOMM_SUCCESS);
  }
  set_environment_together("SCOMM_COLL_SCATTER", nullptr);
}

// A root that broadcasts more than the other expects: truncation, reported, never an overrun.
// (On a pair: a truncated rank stops, so ranks below it in a larger tree would wait.)
TEST_F(CollErrorsTest, MismatchedCountsAreTruncationErrors) {
  if (world_size_ < 2) GTEST_SKIP() << "needs two ranks";
  SCOMM_Comm pair = first_pair_returning_errors();
  if (pair == SCOMM_COMM_NULL) return;
  std::vector<int> data(8, world_rank_);
  const int count = world_rank_ == 0 ? 8 : 4;
  const int rc = SCOMM_Bcast(data.data(), count, MPI_INT, 0, pair);
  EXPECT_EQ(error_class_of(rc), world_rank_ == 0 ? SCOMM_SUCCESS : SCOMM_ERR_TRUNCATE);
  for (std::size_t i = 4; i < 8; ++i) EXPECT_EQ(data[i], world_rank_);
  // The failed call leaves nothing behind: the same call with matching counts then succeeds.
  std::vector<int> again(8, world_rank_);
  ASSERT_EQ(SCOMM_Bcast(again.data(), 8, MPI_INT, 0, pair), SCOMM_SUCCESS);
  EXPECT_EQ(again, std::vector<int>(8, 0));
  SCOMM_Comm_free(&pair);
}

// A replayed receive that the root overfills (it changed its count, the others did not): the
// truncation is reported as in a first call, and the calls after it run.
TEST_F(CollErrorsTest, TruncationOfAReplayedTransferIsReported) {
  if (world_size_ < 2) GTEST_SKIP() << "needs two ranks";
  SCOMM_Comm pair = first_pair_returning_errors();
  if (pair == SCOMM_COMM_NULL) return;
  std::vector<int> data(8, world_rank_);
  for (int repeat = 0; repeat < 3; ++repeat)  // the last two are replays
    ASSERT_EQ(SCOMM_Bcast(data.data(), 4, MPI_INT, 0, pair), SCOMM_SUCCESS);
  std::fill(data.begin(), data.end(), world_rank_);
  const int rc = SCOMM_Bcast(data.data(), world_rank_ == 0 ? 8 : 4, MPI_INT, 0, pair);
  EXPECT_EQ(error_class_of(rc), world_rank_ == 0 ? SCOMM_SUCCESS : SCOMM_ERR_TRUNCATE);
  for (std::size_t i = 4; i < 8; ++i) EXPECT_EQ(data[i], world_rank_);
  for (int repeat = 0; repeat < 3; ++repeat) {
    std::fill(data.begin(), data.end(), world_rank_ + repeat);
    ASSERT_EQ(SCOMM_Bcast(data.data(), 4, MPI_INT, 0, pair), SCOMM_SUCCESS);
    EXPECT_EQ(data[3], repeat) << "repeat " << repeat;
  }
  SCOMM_Comm_free(&pair);
}

// The same for a replay that runs its rounds and local steps by MPI calls alone
// (ScheduleRun::replay_direct: a two-rank allreduce, one exchange and a reduction): the rank
// whose replayed exchange is overfilled reports the truncation, and the calls after it give
// MPI's results.
TEST_F(CollErrorsTest, TruncationOfADirectReplayIsReported) {
  if (world_size_ < 2) GTEST_SKIP() << "needs two ranks";
  SCOMM_Comm pair = first_pair_returning_errors();
  if (pair == SCOMM_COMM_NULL) return;
  std::vector<int> in(8, world_rank_ + 1), out(8, 0);
  for (int repeat = 0; repeat < 3; ++repeat)  // the last two are replays
    ASSERT_EQ(SCOMM_Allreduce(in.data(), out.data(), 4, MPI_INT, MPI_SUM, pair), SCOMM_SUCCESS);
  const int rc =
      SCOMM_Allreduce(in.data(), out.data(), world_rank_ == 0 ? 8 : 4, MPI_INT, MPI_SUM, pair);
  EXPECT_EQ(error_class_of(rc), world_rank_ == 0 ? SCOMM_SUCCESS : SCOMM_ERR_TRUNCATE);
  for (int repeat = 0; repeat < 3; ++repeat) {
    std::fill(in.begin(), in.end(), world_rank_ + repeat);
    ASSERT_EQ(SCOMM_Allreduce(in.data(), out.data(), 4, MPI_INT, MPI_SUM, pair), SCOMM_SUCCESS);
    EXPECT_EQ(out[3], 1 + 2 * repeat) << "repeat " << repeat;  // ranks 0 and 1: 0 + 1, 1 + 2, ...
  }
  SCOMM_Comm_free(&pair);
}

// The same through SCOMM_Ibcast: waited for alone (the run leaves the background and blocks in
// MPI) and beside a second collective in flight (it polls with it), the truncation is reported
// once, by SCOMM_Ibcast when the message is there at once or else by SCOMM_Wait, which frees the
// request; nothing is left behind.
TEST_F(CollErrorsTest, NonblockingTruncationIsReportedOnceAloneOrNot) {
  if (world_size_ < 2) GTEST_SKIP() << "needs two ranks";
  SCOMM_Comm pair = first_pair_returning_errors();
  if (pair == SCOMM_COMM_NULL) return;
  for (const bool alone : {true, false}) {
    SCOMM_Request barrier = SCOMM_REQUEST_NULL;
    if (!alone) {
      ASSERT_EQ(SCOMM_Ibarrier(pair, &barrier), SCOMM_SUCCESS);
    }
    std::vector<int> data(8, world_rank_);
    const int count = world_rank_ == 0 ? 8 : 4;
    SCOMM_Request request = SCOMM_REQUEST_NULL;
    int rc = SCOMM_Ibcast(data.data(), count, MPI_INT, 0, pair, &request);
    if (rc == SCOMM_SUCCESS) {
      ASSERT_NE(request, SCOMM_REQUEST_NULL);
      rc = SCOMM_Wait(&request, SCOMM_STATUS_IGNORE);
    }
    EXPECT_EQ(error_class_of(rc), world_rank_ == 0 ? SCOMM_SUCCESS : SCOMM_ERR_TRUNCATE);
    EXPECT_EQ(request, SCOMM_REQUEST_NULL);
    for (std::size_t i = 4; i < 8; ++i) EXPECT_EQ(data[i], world_rank_);
    if (!alone) {
      ASSERT_EQ(SCOMM_Wait(&barrier, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
    }
    std::vector<int> again(8, world_rank_);
    SCOMM_Request retry = SCOMM_REQUEST_NULL;
    ASSERT_EQ(SCOMM_Ibcast(again.data(), 8, MPI_INT, 0, pair, &retry), SCOMM_SUCCESS);
    ASSERT_EQ(SCOMM_Wait(&retry, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
    EXPECT_EQ(again, std::vector<int>(8, 0));
  }
  SCOMM_Comm_free(&pair);
}

}  // namespace
