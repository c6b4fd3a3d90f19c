// Matched probes (SCOMM_Mprobe, SCOMM_Improbe, SCOMM_Mrecv, SCOMM_Imrecv) against MPI's own on the
// same message pattern (SMPI has none: there against MPI's definition), on a communicator whose
// ranks are not the world's: what each probe finds, that a probed message is out of matching,
// that other communicators' messages stay apart, MPI_PROC_NULL, truncation and bad handles.
#include <vector>

#include "scomm_fixture.hpp"
#include "smpi_defects.hpp"

namespace {

// A message as a receiver saw it: source, tag, count and its first and last ints.
struct Seen {
  int source = -1, tag = -1, count = -1, first = -1, last = -1;
  friend bool operator==(const Seen&, const Seen&) = default;
};

class MessageProbeTest : public ReversedWorldTest {
 protected:
  // Three messages to the right: tags 3, 4, 3, of 1, 2 and 3 times (rank + 1) ints.
  std::vector<std::vector<int>> outgoing() const {
    std::vector<std::vector<int>> out;
    for (int m = 0; m < 3; ++m) {
      std::vector<int> data(static_cast<std::size_t>((m + 1) * (rank_ + 1)));
      for (std::size_t i = 0; i < data.size(); ++i) data[i] = 1000 * rank_ + 100 * m + int(i);
      out.push_back(data);
    }
    return out;
  }
  static constexpr int kTags[3] = {3, 4, 3};
};

// Under MPI: receives the three messages by matched probes, the first for tag 4 (overtaking the
// first tag 3, which a plain probe then still finds), then any, then any with Improbe / Imrecv.
std::vector<Seen> receive_mpi(MPI_Comm comm, int left) {
  std::vector<Seen> seen;
  for (int step = 0; step < 3; ++step) {
    MPI_Message message = MPI_MESSAGE_NULL;
    MPI_Status status;
    const int tag = step == 0 ? 4 : MPI_ANY_TAG;
    if (step < 2) {
      MPI_Mprobe(step == 0 ? left : MPI_ANY_SOURCE, tag, comm, &message, &status);
    } else {
      for (int flag = 0; flag == 0;)
        MPI_Improbe(MPI_ANY_SOURCE, tag, comm, &flag, &message, &status);
    }
    int count = 0;
    MPI_Get_count(&status, MPI_INT, &count);
    std::vector<int> data(static_cast<std::size_t>(count));
    MPI_Status received;
    if (step < 2) {
      MPI_Mrecv(data.data(), count, MPI_INT, &message, &received);
    } else {
      MPI_Request request;
      MPI_Imrecv(data.data(), count, MPI_INT, &message, &request);
      MPI_Wait(&request, &received);
    }
    seen.push_back({received.MPI_SOURCE, received.MPI_TAG, count, data.front(), data.back()});
  }
  return seen;
}

std::vector<Seen> receive_scomm(SCOMM_Comm comm, int left) {
  std::vector<Seen> seen;
  for (int step = 0; step < 3; ++step) {
    SCOMM_Message message = SCOMM_MESSAGE_NULL;
    SCOMM_Status status;
    const int tag = step == 0 ? 4 : SCOMM_ANY_TAG;
    if (step < 2) {
      EXPECT_EQ(SCOMM_Mprobe(step == 0 ? left : SCOMM_ANY_SOURCE, tag, comm, &message, &status),
                SCOMM_SUCCESS);
    } else {
      for (int flag = 0; flag == 0;)
        EXPECT_EQ(SCOMM_Improbe(SCOMM_ANY_SOURCE, tag, comm, &flag, &message, &status), 0);
    }
    if (step == 0) {  // probed, the tag-4 message is out of matching: a probe for 4 finds none
      int flag = 1;
      EXPECT_EQ(SCOMM_Iprobe(left, 4, comm, &flag, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
      EXPECT_EQ(flag, 0);
    }
    int count = 0;
    SCOMM_Get_count(&status, MPI_INT, &count);
    std::vector<int> data(static_cast<std::size_t>(count));
    SCOMM_Status received;
    if (step < 2) {
      EXPECT_EQ(SCOMM_Mrecv(data.data(), count, MPI_INT, &message, &received), SCOMM_SUCCESS);
    } else {
      SCOMM_Request request = SCOMM_REQUEST_NULL;
      EXPECT_EQ(SCOMM_Imrecv(data.data(), count, MPI_INT, &message, &request), SCOMM_SUCCESS);
      EXPECT_EQ(SCOMM_Wait(&request, &received), SCOMM_SUCCESS);
    }
    EXPECT_EQ(message, SCOMM_MESSAGE_NULL);
    EXPECT_EQ(received.SCOMM_SOURCE, status.SCOMM_SOURCE);
    seen.push_back({received.SCOMM_SOURCE, received.SCOMM_TAG, count, data.front(), data.back()});
  }
  return seen;
}

TEST_F(MessageProbeTest, ProbedMessagesAreReceivedAsMpiReceivesThem) {
  const auto out = outgoing();
  std::vector<SCOMM_Request> sends(3);
  std::vector<MPI_Request> mpi_sends(3);
  for (int m = 0; m < 3; ++m) {
    MPI_Isend(out[m].data(), static_cast<int>(out[m].size()), MPI_INT, right_, kTags[m], mpi_,
              &mpi_sends[m]);
    ASSERT_EQ(SCOMM_Isend(out[m].data(), static_cast<int>(out[m].size()), MPI_INT, right_, kTags[m],
                          comm_, &sends[m]),
              SCOMM_SUCCESS);
  }
  const std::vector<Seen> ours = receive_scomm(comm_, left_);
  // By MPI's definition: the tag-4 message first, then the tag-3 ones in their sending order.
  const int n = left_ + 1;
  const std::vector<Seen> expected = {
      {left_, 4, 2 * n, 1000 * left_ + 100, 1000 * left_ + 99 + 2 * n},
      {left_, 3, n, 1000 * left_, 1000 * left_ + n - 1},
      {left_, 3, 3 * n, 1000 * left_ + 200, 1000 * left_ + 199 + 3 * n}};
  EXPECT_EQ(ours, expected);
  if (!kOnSmpi) {  // SMPI 3.32 has no matched probes
    EXPECT_EQ(ours, receive_mpi(mpi_, left_));
  } else {
    for (int m = 0; m < 3; ++m) {
      std::vector<int> sink(static_cast<std::size_t>(3 * size_));  // the largest message
      MPI_Recv(sink.data(), static_cast<int>(sink.size()), MPI_INT, left_, kTags[m], mpi_,
               MPI_STATUS_IGNORE);
    }
  }
  MPI_Waitall(3, mpi_sends.data(), MPI_STATUSES_IGNORE);
  ASSERT_EQ(SCOMM_Waitall(3, sends.data(), SCOMM_STATUSES_IGNORE), SCOMM_SUCCESS);
}

// A matched probe on one communicator never takes another's message, though both have the same
// members, source and tag.
TEST_F(MessageProbeTest, OtherCommunicatorsMessagesStayApart) {
  SCOMM_Comm other = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_dup(comm_, &other), SCOMM_SUCCESS);
  const int first = 1, second = 2;
  SCOMM_Request sends[2];  // nonblocking: MPICH holds a message to oneself until it is received
  ASSERT_EQ(SCOMM_Isend(&first, 1, MPI_INT, right_, 7, other, &sends[0]), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Isend(&second, 1, MPI_INT, right_, 7, comm_, &sends[1]), SCOMM_SUCCESS);
  SCOMM_Message message = SCOMM_MESSAGE_NULL;
  int got = 0;
  ASSERT_EQ(SCOMM_Mprobe(SCOMM_ANY_SOURCE, SCOMM_ANY_TAG, comm_, &message, SCOMM_STATUS_IGNORE),
            SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Mrecv(&got, 1, MPI_INT, &message, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  EXPECT_EQ(got, 2);
  ASSERT_EQ(
      SCOMM_Recv(&got, 1, MPI_INT, SCOMM_ANY_SOURCE, SCOMM_ANY_TAG, other, SCOMM_STATUS_IGNORE),
      SCOMM_SUCCESS);
  EXPECT_EQ(got, 1);
  ASSERT_EQ(SCOMM_Waitall(2, sends, SCOMM_STATUSES_IGNORE), SCOMM_SUCCESS);
  SCOMM_Comm_free(&other);
}

TEST_F(MessageProbeTest, ProcNullGivesNoProc) {
  SCOMM_Message message = SCOMM_MESSAGE_NULL;
  SCOMM_Status status;
  ASSERT_EQ(SCOMM_Mprobe(SCOMM_PROC_NULL, 0, comm_, &message, &status), SCOMM_SUCCESS);
  EXPECT_EQ(message, SCOMM_MESSAGE_NO_PROC);
  int value = 5, count = -1;
  ASSERT_EQ(SCOMM_Mrecv(&value, 1, MPI_INT, &message, &status), SCOMM_SUCCESS);
  EXPECT_EQ(message, SCOMM_MESSAGE_NULL);
  EXPECT_EQ(status.SCOMM_SOURCE, SCOMM_PROC_NULL);
  SCOMM_Get_count(&status, MPI_INT, &count);
  EXPECT_EQ(count, 0);
  EXPECT_EQ(value, 5);
  int flag = 0;
  SCOMM_Request request = SCOMM_REQUEST_NULL;
  ASSERT_EQ(SCOMM_Improbe(SCOMM_PROC_NULL, 0, comm_, &flag, &message, &status), SCOMM_SUCCESS);
  EXPECT_EQ(flag, 1);
  ASSERT_EQ(SCOMM_Imrecv(&value, 1, MPI_INT, &message, &request), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Wait(&request, &status), SCOMM_SUCCESS);
  EXPECT_EQ(status.SCOMM_SOURCE, SCOMM_PROC_NULL);
}

class MessageProbeErrorsTest : public MessageProbeTest {
 protected:
  void SetUp() override {
    MessageProbeTest::SetUp();
    SCOMM_Comm_set_errhandler(SCOMM_COMM_WORLD, SCOMM_ERRORS_RETURN);
    SCOMM_Comm_set_errhandler(comm_, SCOMM_ERRORS_RETURN);
  }
};

TEST_F(MessageProbeErrorsTest, TruncationAndBadHandles) {
  const int three[3] = {1, 2, 3};
  SCOMM_Request send = SCOMM_REQUEST_NULL;
  ASSERT_EQ(SCOMM_Isend(three, 3, MPI_INT, right_, 2, comm_, &send), SCOMM_SUCCESS);
  SCOMM_Message message = SCOMM_MESSAGE_NULL;
  ASSERT_EQ(SCOMM_Mprobe(left_, 2, comm_, &message, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  const SCOMM_Message stale = message;
  int two[2] = {0, 0};
  EXPECT_EQ(error_class_of(SCOMM_Mrecv(two, -1, MPI_INT, &message, SCOMM_STATUS_IGNORE)),
            SCOMM_ERR_COUNT);
  EXPECT_EQ(message, stale);  // a call that failed its checks keeps the message
  SCOMM_Status status;
  status.SCOMM_ERROR = 12345;
  EXPECT_EQ(error_class_of(SCOMM_Mrecv(two, 2, MPI_INT, &message, &status)), SCOMM_ERR_TRUNCATE);
  EXPECT_EQ(status.SCOMM_ERROR, 12345);   // a call of one status leaves it (MPI)
  EXPECT_EQ(status.SCOMM_SOURCE, left_);  // the message's, and its size (scomm's own matching)
  EXPECT_EQ(status.SCOMM_TAG, 2);
  int count = -1;
  SCOMM_Get_count(&status, MPI_INT, &count);
  EXPECT_EQ(count, 3);
  EXPECT_EQ(message, SCOMM_MESSAGE_NULL);
  SCOMM_Message copy = stale;
  EXPECT_EQ(error_class_of(SCOMM_Mrecv(two, 2, MPI_INT, &copy, SCOMM_STATUS_IGNORE)),
            SCOMM_ERR_REQUEST);
  copy = 12345;
  SCOMM_Request request = SCOMM_REQUEST_NULL;
  EXPECT_EQ(error_class_of(SCOMM_Imrecv(two, 2, MPI_INT, &copy, &request)), SCOMM_ERR_REQUEST);
  int tag_ub = 0, flag = 0;
  SCOMM_Tag_ub(&tag_ub);
  EXPECT_EQ(error_class_of(SCOMM_Improbe(left_, tag_ub + 1, comm_, &flag, &copy, nullptr)),
            SCOMM_ERR_TAG);
  EXPECT_EQ(error_class_of(SCOMM_Mprobe(size_, 0, comm_, &copy, nullptr)), SCOMM_ERR_RANK);
  EXPECT_EQ(error_class_of(SCOMM_Mprobe(left_, 0, 12345, &copy, nullptr)), SCOMM_ERR_COMM);
  ASSERT_EQ(SCOMM_Improbe(SCOMM_ANY_SOURCE, SCOMM_ANY_TAG, comm_, &flag, &copy, nullptr), 0);
  EXPECT_EQ(flag, 0);  // the truncated message is gone
  ASSERT_EQ(SCOMM_Wait(&send, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
}

// An argument error of a probed message's receive goes through the handler of the
// communicator the message was probed on (as Open MPI raises it there), not the world's.
struct HandlerCalls {
  int count = 0;
  SCOMM_Comm comm = SCOMM_COMM_NULL;
};
HandlerCalls handler_calls;

void record_handler_call(SCOMM_Comm* comm, int*, ...) {
  ++handler_calls.count;
  handler_calls.comm = *comm;
}

TEST_F(MessageProbeErrorsTest, AReceivesArgumentErrorGoesToTheMessagesCommunicator) {
  SCOMM_Errhandler recording = SCOMM_ERRHANDLER_NULL;
  ASSERT_EQ(SCOMM_Comm_create_errhandler(record_handler_call, &recording), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_set_errhandler(comm_, recording), SCOMM_SUCCESS);
  const int one = 1;
  SCOMM_Request send = SCOMM_REQUEST_NULL;  // nonblocking: on one rank MPICH's blocking one waits
  ASSERT_EQ(SCOMM_Isend(&one, 1, MPI_INT, right_, 4, comm_, &send), SCOMM_SUCCESS);
  SCOMM_Message message = SCOMM_MESSAGE_NULL;
  ASSERT_EQ(SCOMM_Mprobe(left_, 4, comm_, &message, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  int got = 0;
  SCOMM_Request request = SCOMM_REQUEST_NULL;
  handler_calls = {};
  EXPECT_EQ(error_class_of(SCOMM_Mrecv(&got, -1, MPI_INT, &message, SCOMM_STATUS_IGNORE)),
            SCOMM_ERR_COUNT);
  EXPECT_EQ(error_class_of(SCOMM_Imrecv(&got, 1, MPI_DATATYPE_NULL, &message, &request)),
            SCOMM_ERR_TYPE);
  EXPECT_EQ(handler_calls.count, 2);
  EXPECT_EQ(handler_calls.comm, comm_);
  ASSERT_EQ(SCOMM_Mrecv(&got, 1, MPI_INT, &message, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  EXPECT_EQ(got, 1);
  ASSERT_EQ(SCOMM_Wait(&send, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  SCOMM_Comm_set_errhandler(comm_, SCOMM_ERRORS_RETURN);
  SCOMM_Errhandler_free(&recording);
}

}  // namespace
