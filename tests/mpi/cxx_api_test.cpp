// The C++ interface (include/scomm.hpp) against MPI's own results on the same ranks: creation,
// point-to-point, collectives, ownership and exceptions.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <vector>

#include "scomm.hpp"
#include "scomm_fixture.hpp"

namespace {

class CxxApiTest : public ::testing::Test {
 protected:
  int argc_ = 0;
  char** argv_ = nullptr;
  scomm::Session session_{argc_, argv_};
  scomm::Communicator world_ = scomm::Communicator::world();
};

TEST_F(CxxApiTest, SplitHasTheMembersOfMpiCommSplit) {
  const int rank = world_.rank(), color = rank % 3, key = -rank;
  const scomm::Communicator mine = world_.split(color, key);
  MPI_Comm theirs = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, color, key, &theirs);
  int their_rank = 0, their_size = 0;
  MPI_Comm_rank(theirs, &their_rank);
  MPI_Comm_size(theirs, &their_size);
  EXPECT_EQ(mine.rank(), their_rank);
  EXPECT_EQ(mine.size(), their_size);
  EXPECT_EQ(mine.allgather(rank), members_of(mine.handle()));
  MPI_Comm_free(&theirs);
}

TEST_F(CxxApiTest, SplitSharedHasTheMembersOfMpiCommSplitType) {
  const int rank = world_.rank();
  const scomm::Communicator mine = world_.split_shared(-rank);
  MPI_Comm theirs = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, -rank, MPI_INFO_NULL, &theirs);
  EXPECT_EQ(mine.allgather(rank), members_of_mpi(theirs));
  MPI_Comm_free(&theirs);
}

// A ring shift repeated with one persistent send and receive, both restarted each round.
TEST_F(CxxApiTest, PersistentRequestsRepeatARingShift) {
  const int p = world_.size(), rank = world_.rank();
  std::array<int, 2> out{}, in{};
  scomm::PersistentRequest receive = world_.recv_init(in, (rank + p - 1) % p, 3);
  scomm::PersistentRequest send = world_.send_init(out, (rank + 1) % p, 3);
  for (int round = 0; round < 4; ++round) {
    out = {rank, round};
    receive.start();
    send.start();
    send.wait();
    receive.wait();
    EXPECT_EQ(in, (std::array<int, 2>{(rank + p - 1) % p, round}));
  }
  send.start();  // freed once complete, when it goes
  receive.start();
}

// A persistent broadcast and allreduce started again on new contents each round, with a
// persistent barrier between rounds; the ones still started when they go are freed once done.
TEST_F(CxxApiTest, PersistentCollectivesRepeatOnNewData) {
  const int p = world_.size(), rank = world_.rank(), root = p - 1;
  std::array<int, 3> shared{}, mine{}, sums{};
  scomm::PersistentRequest bcast = world_.bcast_init(shared, root);
  scomm::PersistentRequest allreduce = world_.allreduce_init(mine, sums, MPI_SUM);
  scomm::PersistentRequest barrier = world_.barrier_init();
  for (int round = 0; round < 4; ++round) {
    shared = rank == root ? std::array<int, 3>{round, 2 * round, 3 * round} : std::array<int, 3>{};
    mine = {rank, round, 1};
    bcast.start();
    allreduce.start();
    bcast.wait();
    allreduce.wait();
    EXPECT_EQ(shared, (std::array<int, 3>{round, 2 * round, 3 * round}));
    EXPECT_EQ(sums, (std::array<int, 3>{p * (p - 1) / 2, p * round, p}));
    barrier.start();
    barrier.wait();
  }
  std::array<int, 2> wrong{};
  EXPECT_THROW(world_.allreduce_init(mine, wrong, MPI_SUM), std::length_error);
  bcast.start();
  allreduce.start();
}

// A ring shift by sendrecv and by sendrecv_replace, and a message of a size only its sender
// knows received through a matched probe.
TEST_F(CxxApiTest, SendrecvReplaceAndMatchedProbes) {
  const int p = world_.size(), rank = world_.rank();
  const int right = (rank + 1) % p, left = (rank + p - 1) % p;
  std::array<int, 2> out{rank, 1}, in{};
  scomm::Received got = world_.sendrecv(out, right, in, left, 5, 5);
  EXPECT_EQ(in, (std::array<int, 2>{left, 1}));
  EXPECT_EQ(got.source, left);
  EXPECT_EQ(got.count, 2);
  std::vector<double> data(3, rank + 0.5);
  got = world_.sendrecv_replace(data, right, left, 6);
  EXPECT_EQ(data, std::vector<double>(3, left + 0.5));
  EXPECT_EQ(got.tag, 6);
  std::vector<long> sized(static_cast<std::size_t>(rank + 1), rank);
  scomm::Request send = world_.isend(sized, right, 7);
  scomm::Message message = world_.mprobe(left, 7);
  std::vector<long> received(static_cast<std::size_t>(message.count<long>()));
  got = message.recv(received);
  EXPECT_EQ(received, std::vector<long>(static_cast<std::size_t>(left + 1), left));
  EXPECT_EQ(message.source(), left);
  send.wait();
}

TEST_F(CxxApiTest, RangeOutsideIsEmptyAndInsideIsLocal) {
  const int p = world_.size(), rank = world_.rank();
  const scomm::Communicator upper = world_.create_range(p / 2, p - 1);
  EXPECT_EQ(static_cast<bool>(upper), rank >= p / 2);
  if (upper) {
    EXPECT_EQ(upper.rank(), rank - p / 2);
    EXPECT_EQ(upper.size(), p - p / 2);
  }
}

TEST_F(CxxApiTest, CollectivesEqualMpis) {
  const int rank = world_.rank();
  const long value = 3L * rank + 1;
  long sum = 0, prefix = 0;
  MPI_Allreduce(&value, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Scan(&value, &prefix, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(world_.allreduce(value, MPI_SUM), sum);
  EXPECT_EQ(world_.scan(value, MPI_SUM), prefix);

  std::vector<double> v(5, rank + 0.5), expected(v.size());
  MPI_Allreduce(v.data(), expected.data(), 5, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  world_.allreduce_in_place(v, MPI_MAX);
  EXPECT_EQ(v, expected);

  const int root = world_.size() - 1;
  std::array<int, 3> data{};
  if (rank == root) data = {7, 8, 9};
  scomm::Request pending = world_.ibcast(data, root);
  pending.wait();
  EXPECT_EQ(data, (std::array<int, 3>{7, 8, 9}));
  world_.barrier();
}

TEST_F(CxxApiTest, RingExchangeReportsSourceTagAndCount) {
  const int p = world_.size(), rank = world_.rank();
  const std::vector<int> out(static_cast<std::size_t>(rank + 1), rank);
  std::vector<int> in(static_cast<std::size_t>(p), -1);
  scomm::Request sent = world_.isend(out, (rank + 1) % p, 5);
  const scomm::Received got = world_.recv(in, (rank + p - 1) % p);
  sent.wait();
  const int left = (rank + p - 1) % p;
  EXPECT_EQ(got.source, left);
  EXPECT_EQ(got.tag, 5);
  EXPECT_EQ(got.count, left + 1);
  EXPECT_TRUE(std::all_of(in.begin(), in.begin() + got.count, [&](int x) { return x == left; }));
}

// Receives from both neighbours and a broadcast, completed by wait_some, wait_any and wait_all:
// each index once, each Request empty afterwards.
TEST_F(CxxApiTest, ManyRequestsCompleteTogether) {
  const int p = world_.size(), rank = world_.rank();
  const int right = (rank + 1) % p, left = (rank + p - 1) % p;
  for (int way = 0; way < 3; ++way) {
    std::array<int, 1> to_right{rank}, to_left{rank + 100}, from_left{-1}, from_right{-1};
    std::array<int, 2> shared{};
    if (rank == 0) shared = {way, 42};
    std::vector<scomm::Request> requests;
    requests.push_back(world_.irecv(from_left, left, 1));
    requests.push_back(world_.irecv(from_right, right, 2));
    requests.push_back(world_.ibcast(shared, 0));
    requests.push_back(world_.isend(to_right, right, 1));
    requests.push_back(world_.isend(to_left, left, 2));
    std::vector<std::size_t> seen;
    if (way == 0) {
      for (auto done = scomm::wait_some(requests); !done.empty(); done = scomm::wait_some(requests))
        seen.insert(seen.end(), done.begin(), done.end());
    } else if (way == 1) {
      while (const auto index = scomm::wait_any(requests)) seen.push_back(*index);
    } else {
      scomm::wait_all(requests);
      seen = {0, 1, 2, 3, 4};
    }
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(seen, (std::vector<std::size_t>{0, 1, 2, 3, 4})) << way;
    for (scomm::Request& r : requests) EXPECT_EQ(*r.handle(), SCOMM_REQUEST_NULL) << way;
    EXPECT_TRUE(scomm::test_some(requests).empty());
    EXPECT_EQ(from_left[0], left);
    EXPECT_EQ(from_right[0], right + 100);
    EXPECT_EQ(shared, (std::array<int, 2>{way, 42}));
  }
}

TEST_F(CxxApiTest, FailuresThrowWithTheirErrorClass) {
  const std::vector<int> one{1};
  try {
    world_.send(one, world_.size());  // no such rank
    FAIL() << "no exception";
  } catch (const scomm::Exception& e) {
    EXPECT_EQ(e.error_class(), SCOMM_ERR_RANK);
    EXPECT_NE(std::string(e.what()).find("rank"), std::string::npos) << e.what();
  }
  EXPECT_THROW(world_.create_range(0, world_.size()), scomm::Exception);  // past the end
}

TEST_F(CxxApiTest, MovedCommunicatorsAreFreedOnce) {
  scomm::Communicator a = world_.dup();
  scomm::Communicator b = std::move(a);
  EXPECT_FALSE(a);  // NOLINT(bugprone-use-after-move): moved-from is empty by contract
  const SCOMM_Comm handle = b.handle();
  b = scomm::Communicator();
  int size = 0;
  SCOMM_Comm_set_errhandler(SCOMM_COMM_WORLD, SCOMM_ERRORS_RETURN);
  EXPECT_EQ(error_class_of(SCOMM_Comm_size(handle, &size)), SCOMM_ERR_COMM);  // freed
}

}  // namespace
