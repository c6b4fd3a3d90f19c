// Persistent requests (SCOMM_Send_init, SCOMM_Ssend_init, SCOMM_Recv_init, SCOMM_Start,
// SCOMM_Startall) against MPI's own on the same ranks: a halo exchange repeated on a communicator
// whose ranks are not the world's, completed every way, gives the same data and statuses; an
// inactive request is treated as MPI treats it; and misuse is an error.
#include <vector>

#include "scomm_fixture.hpp"
#include "smpi_defects.hpp"

namespace {

// The exchange each round: receives from the left by a named tag, by MPI_ANY_SOURCE and by
// MPI_ANY_TAG (scomm's engine), and a standard and a synchronous send to the right for each.
constexpr int kReceives = 3;
constexpr int kTags[kReceives] = {4, 5, 6};

struct Received {
  int source = -1;
  int tag = -1;
  int count = -1;
  friend bool operator==(const Received&, const Received&) = default;
};

using PersistentTest = ReversedWorldTest;

// How a round's requests are completed, by both libraries alike.
enum class Completion { kWaitall, kTestall, kWaitany, kTestany, kWaitsome, kTestsome, kWait };
constexpr Completion kCompletions[] = {
    Completion::kWaitall,  Completion::kTestall,  Completion::kWaitany, Completion::kTestany,
    Completion::kWaitsome, Completion::kTestsome, Completion::kWait};

// Either library's calls, under one name each, so that one exchange and one completion loop
// serve both.
struct MpiCalls {
  using Comm = MPI_Comm;
  using Request = MPI_Request;
  using Status = MPI_Status;
  static constexpr int kAnySource = MPI_ANY_SOURCE, kAnyTag = MPI_ANY_TAG;
  static constexpr auto recv_init = MPI_Recv_init;
  static constexpr auto send_init = MPI_Send_init;
  static constexpr auto ssend_init = MPI_Ssend_init;
  static constexpr auto waitall = MPI_Waitall;
  static constexpr auto testall = MPI_Testall;
  static constexpr auto waitany = MPI_Waitany;
  static constexpr auto testany = MPI_Testany;
  static constexpr auto waitsome = MPI_Waitsome;
  static constexpr auto testsome = MPI_Testsome;
  static constexpr auto wait = MPI_Wait;
  static Received received(MPI_Status& s) {
    Received got{s.MPI_SOURCE, s.MPI_TAG, -1};
    MPI_Get_count(&s, MPI_INT, &got.count);
    return got;
  }
};
struct ScommCalls {
  using Comm = SCOMM_Comm;
  using Request = SCOMM_Request;
  using Status = SCOMM_Status;
  static constexpr int kAnySource = SCOMM_ANY_SOURCE, kAnyTag = SCOMM_ANY_TAG;
  static constexpr auto recv_init = SCOMM_Recv_init;
  static constexpr auto send_init = SCOMM_Send_init;
  static constexpr auto ssend_init = SCOMM_Ssend_init;
  static constexpr auto waitall = SCOMM_Waitall;
  static constexpr auto testall = SCOMM_Testall;
  static constexpr auto waitany = SCOMM_Waitany;
  static constexpr auto testany = SCOMM_Testany;
  static constexpr auto waitsome = SCOMM_Waitsome;
  static constexpr auto testsome = SCOMM_Testsome;
  static constexpr auto wait = SCOMM_Wait;
  static Received received(SCOMM_Status& s) {
    Received got{s.SCOMM_SOURCE, s.SCOMM_TAG, -1};
    SCOMM_Get_count(&s, MPI_INT, &got.count);
    return got;
  }
};

// The persistent requests of the exchange: receives first, then sends.
template <typename Calls>
std::vector<typename Calls::Request> exchange(typename Calls::Comm comm, int left, int right,
                                              std::vector<int>& in, const std::vector<int>& out) {
  std::vector<typename Calls::Request> r(2 * kReceives);
  EXPECT_EQ(Calls::recv_init(&in[0], 1, MPI_INT, left, kTags[0], comm, &r[0]), 0);
  EXPECT_EQ(Calls::recv_init(&in[1], 1, MPI_INT, Calls::kAnySource, kTags[1], comm, &r[1]), 0);
  EXPECT_EQ(Calls::recv_init(&in[2], 1, MPI_INT, left, Calls::kAnyTag, comm, &r[2]), 0);
  EXPECT_EQ(Calls::send_init(&out[0], 1, MPI_INT, right, kTags[0], comm, &r[3]), 0);
  EXPECT_EQ(Calls::ssend_init(&out[1], 1, MPI_INT, right, kTags[1], comm, &r[4]), 0);
  EXPECT_EQ(Calls::send_init(&out[2], 1, MPI_INT, right, kTags[2], comm, &r[5]), 0);
  return r;
}

// One pass of `how` over the requests: the statuses of those it completed go to their index in
// `statuses`. False once every request has completed.
template <typename Calls>
bool complete_pass(std::vector<typename Calls::Request>& r, Completion how,
                   std::vector<typename Calls::Status>& statuses) {
  const int n = static_cast<int>(r.size());
  int index = MPI_UNDEFINED, flag = 0, outcount = 0;
  std::vector<int> indices(r.size());
  std::vector<typename Calls::Status> some(r.size());
  switch (how) {
    case Completion::kWaitall:
      EXPECT_EQ(Calls::waitall(n, r.data(), statuses.data()), 0);
      return false;
    case Completion::kTestall:
      EXPECT_EQ(Calls::testall(n, r.data(), &flag, statuses.data()), 0);
      return flag == 0;
    case Completion::kWaitany:
    case Completion::kTestany:
      if (how == Completion::kWaitany)
        EXPECT_EQ(Calls::waitany(n, r.data(), &index, &some[0]), 0);
      else
        EXPECT_EQ(Calls::testany(n, r.data(), &index, &flag, &some[0]), 0);
      if (index != MPI_UNDEFINED) statuses[static_cast<std::size_t>(index)] = some[0];
      return !(index == MPI_UNDEFINED && (how == Completion::kWaitany || flag));
    case Completion::kWaitsome:
    case Completion::kTestsome:
      if (how == Completion::kWaitsome)
        EXPECT_EQ(Calls::waitsome(n, r.data(), &outcount, indices.data(), some.data()), 0);
      else
        EXPECT_EQ(Calls::testsome(n, r.data(), &outcount, indices.data(), some.data()), 0);
      for (int k = 0; k < std::max(outcount, 0); ++k)
        statuses[static_cast<std::size_t>(indices[static_cast<std::size_t>(k)])] =
            some[static_cast<std::size_t>(k)];
      return outcount != MPI_UNDEFINED;
    case Completion::kWait:
      for (int i = 0; i < n; ++i) EXPECT_EQ(Calls::wait(&r[i], &statuses[i]), 0);
      return false;
  }
  return false;
}

// Completes every request of one round by `how`: the receives' statuses, by index. The handles
// must stay those of the persistent requests.
template <typename Calls>
std::vector<Received> complete(std::vector<typename Calls::Request>& r, Completion how) {
  const std::vector<typename Calls::Request> handles = r;
  std::vector<typename Calls::Status> statuses(r.size());
  while (complete_pass<Calls>(r, how, statuses))
    EXPECT_EQ(r, handles) << "a completion call changed a persistent request's handle";
  std::vector<Received> received;
  for (int i = 0; i < kReceives; ++i) received.push_back(Calls::received(statuses[i]));
  return received;
}

// Every round restarts the same requests with new data; each completion way in turn. The
// requests complete in whatever order MPI completes them, so each library's round is compared
// with its own data and the statuses with each other.
TEST_F(PersistentTest, AHaloExchangeRepeatedGivesWhatMpisGives) {
  std::vector<int> mpi_in(kReceives, -1), mpi_out(kReceives), in(kReceives, -1), out(kReceives);
  std::vector<MPI_Request> mpi_requests = exchange<MpiCalls>(mpi_, left_, right_, mpi_in, mpi_out);
  std::vector<SCOMM_Request> requests = exchange<ScommCalls>(comm_, left_, right_, in, out);
  for (int round = 0; round < 3 * static_cast<int>(std::size(kCompletions)); ++round) {
    const Completion how = kCompletions[static_cast<std::size_t>(round) % std::size(kCompletions)];
    for (int i = 0; i < kReceives; ++i) mpi_out[i] = out[i] = 1000 * round + 10 * rank_ + i;
    MPI_Startall(static_cast<int>(mpi_requests.size()), mpi_requests.data());
    const std::vector<Received> theirs = complete<MpiCalls>(mpi_requests, how);
    ASSERT_EQ(SCOMM_Startall(static_cast<int>(requests.size()), requests.data()), SCOMM_SUCCESS);
    const std::vector<Received> ours = complete<ScommCalls>(requests, how);
    for (int i = 0; i < kReceives; ++i)
      EXPECT_EQ(ours[static_cast<std::size_t>(i)], (Received{left_, kTags[i], 1}));
    if (!(how == Completion::kTestall && smpi_defect::kTestallCompletesEarly)) {
      EXPECT_EQ(ours, theirs) << "round " << round;
    }
    EXPECT_EQ(in, mpi_in) << "round " << round;
    for (int i = 0; i < kReceives; ++i) EXPECT_EQ(in[i], 1000 * round + 10 * left_ + i);
  }
  for (MPI_Request& r : mpi_requests) MPI_Request_free(&r);
  for (SCOMM_Request& r : requests) {
    ASSERT_EQ(SCOMM_Request_free(&r), SCOMM_SUCCESS);
    EXPECT_EQ(r, SCOMM_REQUEST_NULL);
  }
}

// An inactive persistent request counts as a null one, its handle kept: a wait returns MPI's
// empty status at once, *any and *some find no active request, Testall says all are complete.
TEST_F(PersistentTest, InactiveRequestsAreTreatedAsNullOnes) {
  int value = -1, mine = -1;
  SCOMM_Request r[2];
  ASSERT_EQ(SCOMM_Recv_init(&value, 1, MPI_INT, left_, 1, comm_, &r[0]), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Send_init(&mine, 1, MPI_INT, right_, 1, comm_, &r[1]), SCOMM_SUCCESS);
  const SCOMM_Request kept[2] = {r[0], r[1]};
  SCOMM_Status status;
  ASSERT_EQ(SCOMM_Wait(&r[0], &status), SCOMM_SUCCESS);
  EXPECT_EQ(status.SCOMM_SOURCE, SCOMM_ANY_SOURCE);
  EXPECT_EQ(status.SCOMM_TAG, SCOMM_ANY_TAG);
  int flag = 0, index = 0, outcount = 0, indices[2];
  ASSERT_EQ(SCOMM_Test(&r[1], &flag, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  EXPECT_EQ(flag, 1);
  ASSERT_EQ(SCOMM_Waitany(2, r, &index, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  EXPECT_EQ(index, SCOMM_UNDEFINED);
  ASSERT_EQ(SCOMM_Testany(2, r, &index, &flag, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  EXPECT_EQ(index, SCOMM_UNDEFINED);
  EXPECT_EQ(flag, 1);
  ASSERT_EQ(SCOMM_Waitsome(2, r, &outcount, indices, SCOMM_STATUSES_IGNORE), SCOMM_SUCCESS);
  EXPECT_EQ(outcount, SCOMM_UNDEFINED);
  ASSERT_EQ(SCOMM_Testall(2, r, &flag, SCOMM_STATUSES_IGNORE), SCOMM_SUCCESS);
  EXPECT_EQ(flag, 1);
  ASSERT_EQ(SCOMM_Waitall(2, r, SCOMM_STATUSES_IGNORE), SCOMM_SUCCESS);
  EXPECT_EQ(r[0], kept[0]);
  EXPECT_EQ(r[1], kept[1]);
  mine = rank_;  // started, they exchange as ever
  ASSERT_EQ(SCOMM_Startall(2, r), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Waitall(2, r, SCOMM_STATUSES_IGNORE), SCOMM_SUCCESS);
  EXPECT_EQ(value, left_);
  for (SCOMM_Request& each : r) ASSERT_EQ(SCOMM_Request_free(&each), SCOMM_SUCCESS);
}

// A started receive cancelled completes cancelled and can start again.
TEST_F(PersistentTest, ACancelledReceiveStartsAgain) {
  int value = -1;
  SCOMM_Request r = SCOMM_REQUEST_NULL;
  ASSERT_EQ(SCOMM_Recv_init(&value, 1, MPI_INT, left_, SCOMM_ANY_TAG, comm_, &r), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Start(&r), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Cancel(&r), SCOMM_SUCCESS);
  int cancelled = 0;
  ASSERT_NO_FATAL_FAILURE(wait_cancelled(r, &cancelled));
  EXPECT_EQ(cancelled, 1);
  ASSERT_EQ(SCOMM_Start(&r), SCOMM_SUCCESS);
  const int mine = 40 + rank_;
  ASSERT_EQ(SCOMM_Send(&mine, 1, MPI_INT, right_, 2, comm_), SCOMM_SUCCESS);
  SCOMM_Status status;
  ASSERT_EQ(SCOMM_Wait(&r, &status), SCOMM_SUCCESS);
  EXPECT_EQ(value, 40 + left_);
  EXPECT_EQ(status.SCOMM_TAG, 2);
  ASSERT_EQ(SCOMM_Request_free(&r), SCOMM_SUCCESS);
}

// MPI lets the caller free a derived type once the init has returned: each request keeps a
// duplicate. Around the ring, every other int of three sent into a pair of ints, twice.
TEST_F(PersistentTest, DerivedTypesMayBeFreedOnceTheInitReturns) {
  if (smpi_defect::kTypeDup) GTEST_SKIP() << "SMPI's MPI_Type_dup: scomm keeps the caller's types";
  MPI_Datatype every_other, pair;
  MPI_Type_vector(2, 1, 2, MPI_INT, &every_other);
  MPI_Type_contiguous(2, MPI_INT, &pair);
  for (MPI_Datatype* type : {&every_other, &pair}) MPI_Type_commit(type);
  int mine[3] = {}, got[2] = {-1, -1};
  SCOMM_Request r[2] = {SCOMM_REQUEST_NULL, SCOMM_REQUEST_NULL};
  ASSERT_EQ(SCOMM_Recv_init(got, 1, pair, left_, 5, comm_, &r[0]), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Send_init(mine, 1, every_other, right_, 5, comm_, &r[1]), SCOMM_SUCCESS);
  for (MPI_Datatype* type : {&every_other, &pair}) MPI_Type_free(type);
  for (int start = 0; start < 2; ++start) {
    mine[0] = 10 * rank_ + start;
    mine[2] = 10 * rank_ + 5;
    ASSERT_EQ(SCOMM_Startall(2, r), SCOMM_SUCCESS);
    ASSERT_EQ(SCOMM_Waitall(2, r, SCOMM_STATUSES_IGNORE), SCOMM_SUCCESS);
    EXPECT_EQ(got[0], 10 * left_ + start);
    EXPECT_EQ(got[1], 10 * left_ + 5);
  }
  for (SCOMM_Request& each : r) ASSERT_EQ(SCOMM_Request_free(&each), SCOMM_SUCCESS);
}

class PersistentErrorsTest : public PersistentTest {
 protected:
  void SetUp() override {
    PersistentTest::SetUp();
    SCOMM_Comm_set_errhandler(SCOMM_COMM_WORLD, SCOMM_ERRORS_RETURN);
    SCOMM_Comm_set_errhandler(comm_, SCOMM_ERRORS_RETURN);
  }
};

TEST_F(PersistentErrorsTest, MisuseIsAnError) {
  int value = 0, tag_ub = 0;
  SCOMM_Tag_ub(&tag_ub);
  SCOMM_Request r = SCOMM_REQUEST_NULL;
  EXPECT_EQ(error_class_of(SCOMM_Send_init(&value, 1, MPI_INT, size_, 0, comm_, &r)),
            SCOMM_ERR_RANK);
  EXPECT_EQ(error_class_of(SCOMM_Recv_init(&value, 1, MPI_INT, left_, tag_ub + 1, comm_, &r)),
            SCOMM_ERR_TAG);
  EXPECT_EQ(error_class_of(SCOMM_Ssend_init(&value, -1, MPI_INT, right_, 0, comm_, &r)),
            SCOMM_ERR_COUNT);
  EXPECT_EQ(error_class_of(SCOMM_Send_init(&value, 1, MPI_INT, right_, 0, 12345, &r)),
            SCOMM_ERR_COMM);
  EXPECT_EQ(r, SCOMM_REQUEST_NULL);
  SCOMM_Request plain = SCOMM_REQUEST_NULL;
  int first = -1;
  ASSERT_EQ(SCOMM_Irecv(&first, 1, MPI_INT, rank_, 3, comm_, &plain), SCOMM_SUCCESS);
  EXPECT_EQ(error_class_of(SCOMM_Start(&plain)), SCOMM_ERR_REQUEST);  // not persistent
  ASSERT_EQ(SCOMM_Recv_init(&value, 1, MPI_INT, rank_, 3, comm_, &r), SCOMM_SUCCESS);
  EXPECT_EQ(error_class_of(SCOMM_Cancel(&r)), SCOMM_ERR_REQUEST);  // inactive
  ASSERT_EQ(SCOMM_Start(&r), SCOMM_SUCCESS);
  EXPECT_EQ(error_class_of(SCOMM_Start(&r)), SCOMM_ERR_REQUEST);  // active
  SCOMM_Request twice[2] = {r, r};
  EXPECT_EQ(error_class_of(SCOMM_Waitall(2, twice, SCOMM_STATUSES_IGNORE)), SCOMM_ERR_REQUEST);
  EXPECT_EQ(twice[0], r);
  const int two[2] = {7, 8};
  ASSERT_EQ(SCOMM_Send(&two[0], 1, MPI_INT, rank_, 3, comm_), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Send(&two[1], 1, MPI_INT, rank_, 3, comm_), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Wait(&plain, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Wait(&r, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  EXPECT_EQ(first, 7);  // posted first
  EXPECT_EQ(value, 8);
  const SCOMM_Request stale = r;
  ASSERT_EQ(SCOMM_Request_free(&r), SCOMM_SUCCESS);
  SCOMM_Request copy = stale;
  EXPECT_EQ(error_class_of(SCOMM_Start(&copy)), SCOMM_ERR_REQUEST);
  EXPECT_EQ(error_class_of(SCOMM_Wait(&copy, SCOMM_STATUS_IGNORE)), SCOMM_ERR_REQUEST);
  EXPECT_EQ(error_class_of(SCOMM_Startall(-1, &copy)), SCOMM_ERR_COUNT);
}

int failures_seen = 0;  // by count_failure
void count_failure(SCOMM_Comm*, int*, ...) {
  ++failures_seen;
}

int live_communicators() {
  int communicators = 0, contexts = 0;
  SCOMM_Comm_live(&communicators, &contexts);
  return communicators;
}

// As in Open MPI and MPICH, persistent requests start after their communicator is freed: its
// handle is stale at once, the communicator goes with the last request, and its error handler
// reports their failures meanwhile.
TEST_F(PersistentErrorsTest, RequestsStartAfterTheirCommunicatorIsFreed) {
  SCOMM_Comm dup = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_dup(comm_, &dup), SCOMM_SUCCESS);
  SCOMM_Errhandler counting = SCOMM_ERRHANDLER_NULL;
  ASSERT_EQ(SCOMM_Comm_create_errhandler(count_failure, &counting), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_set_errhandler(dup, counting), SCOMM_SUCCESS);
  SCOMM_Errhandler_free(&counting);
  const int pair[2] = {rank_, rank_};
  int in = -1, sum = -1, cut = -1;
  constexpr int kRequests = 5;
  SCOMM_Request r[kRequests];
  ASSERT_EQ(SCOMM_Send_init(&rank_, 1, MPI_INT, right_, 1, dup, &r[0]), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Recv_init(&in, 1, MPI_INT, left_, 1, dup, &r[1]), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Allreduce_init(&rank_, &sum, 1, MPI_INT, MPI_SUM, dup, MPI_INFO_NULL, &r[2]),
            SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Send_init(pair, 2, MPI_INT, right_, 2, dup, &r[3]), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Recv_init(&cut, 1, MPI_INT, left_, 2, dup, &r[4]), SCOMM_SUCCESS);
  const int live = live_communicators();
  const SCOMM_Comm stale = dup;
  ASSERT_EQ(SCOMM_Comm_free(&dup), SCOMM_SUCCESS);
  EXPECT_EQ(dup, SCOMM_COMM_NULL);
  int size = 0;
  EXPECT_EQ(error_class_of(SCOMM_Comm_size(stale, &size)), SCOMM_ERR_COMM);
  for (int round = 0; round < 3; ++round) {
    in = sum = -1;
    ASSERT_EQ(SCOMM_Startall(3, r), SCOMM_SUCCESS);
    ASSERT_EQ(SCOMM_Waitall(3, r, SCOMM_STATUSES_IGNORE), SCOMM_SUCCESS);
    EXPECT_EQ(in, left_);
    EXPECT_EQ(sum, size_ * (size_ - 1) / 2);
  }
  ASSERT_EQ(SCOMM_Startall(2, &r[3]), SCOMM_SUCCESS);
  EXPECT_EQ(error_class_of(SCOMM_Wait(&r[4], SCOMM_STATUS_IGNORE)), SCOMM_ERR_TRUNCATE);
  EXPECT_EQ(failures_seen, 1);  // the freed communicator's handler, not the world's
  ASSERT_EQ(SCOMM_Wait(&r[3], SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  for (int i = 0; i < kRequests; ++i) {
    EXPECT_EQ(live_communicators(), live) << "before freeing request " << i;
    ASSERT_EQ(SCOMM_Request_free(&r[i]), SCOMM_SUCCESS);
  }
  EXPECT_EQ(live_communicators(), live - 1);
}

}  // namespace
