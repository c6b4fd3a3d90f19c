// Point-to-point on the real MPI: MPI semantics in communicator ranks (ANY_SOURCE, ANY_TAG,
// probes, ordering, cancel, the completion calls), and storms over many overlapping live
// communicators in which every message is checked for its communicator, source and tag.
#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <numeric>
#include <random>

#include "scomm_fixture.hpp"
#include "smpi_defects.hpp"

namespace {

class P2pTest : public ScommTest {
 protected:
  int right() const { return (world_rank_ + 1) % world_size_; }
  int left() const { return (world_rank_ + world_size_ - 1) % world_size_; }
};

TEST_F(P2pTest, AnyTagReceivesInSendOrderAndReportsTheTag) {
  const int tags[] = {5, 0, 77, 5, 1000};
  for (int i = 0; i < 5; ++i) {
    int value = world_rank_ * 10 + i;
    SCOMM_Request r;
    ASSERT_EQ(SCOMM_Isend(&value, 1, MPI_INT, right(), tags[i], SCOMM_COMM_WORLD, &r), 0);
    int got = -1;
    SCOMM_Status status;
    ASSERT_EQ(SCOMM_Recv(&got, 1, MPI_INT, left(), MPI_ANY_TAG, SCOMM_COMM_WORLD, &status), 0);
    EXPECT_EQ(got, left() * 10 + i);
    EXPECT_EQ(status.SCOMM_TAG, tags[i]);
    EXPECT_EQ(status.SCOMM_SOURCE, left());
    ASSERT_EQ(SCOMM_Wait(&r, SCOMM_STATUS_IGNORE), 0);
  }
}

// A receive of one element of a type of 3 GiB (more bytes than an int counts) takes a short
// message whole, also where scomm's own engine matches it (a receive of any tag): the engine
// once read the type's size as an int, saw room for nothing and reported a truncation.
TEST_F(P2pTest, AnyTagReceiveIntoATypeOfMoreThanIntMaxBytes) {
  if (world_size_ < 2) GTEST_SKIP() << "needs two ranks";
  if (smpi_defect::kTypeSizeOverInt) GTEST_SKIP() << "SMPI sizes types in ints";
  if (world_rank_ > 1) return;
  MPI_Datatype gigabyte = MPI_DATATYPE_NULL, three = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(1 << 30, MPI_BYTE, &gigabyte);
  MPI_Type_contiguous(3, gigabyte, &three);
  MPI_Type_commit(&three);
  std::array<unsigned char, 100> sent{};
  std::iota(sent.begin(), sent.end(), static_cast<unsigned char>(1));
  if (world_rank_ == 0) {
    ASSERT_EQ(SCOMM_Send(sent.data(), 100, MPI_BYTE, 1, 9, SCOMM_COMM_WORLD), SCOMM_SUCCESS);
  } else {
    const std::size_t bytes = std::size_t{3} << 30;
    void* room = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    ASSERT_NE(room, MAP_FAILED);
    SCOMM_Status status;
    EXPECT_EQ(SCOMM_Recv(room, 1, three, 0, SCOMM_ANY_TAG, SCOMM_COMM_WORLD, &status),
              SCOMM_SUCCESS);
    EXPECT_EQ(status.SCOMM_TAG, 9);
    EXPECT_EQ(std::memcmp(room, sent.data(), sent.size()), 0);
    munmap(room, bytes);
  }
  MPI_Type_free(&three);
  MPI_Type_free(&gigabyte);
}

TEST_F(P2pTest, AnyTagAndSpecificReceivesKeepPostingOrder) {
  // Posted: ANY_TAG, then tag 2, then ANY_TAG. Sent: tag 2, tag 2, tag 9. MPI says the first
  // posted receive gets the first matching message.
  int got[3] = {-1, -1, -1};
  SCOMM_Request r[6];
  SCOMM_Irecv(&got[0], 1, MPI_INT, left(), MPI_ANY_TAG, SCOMM_COMM_WORLD, &r[0]);
  SCOMM_Irecv(&got[1], 1, MPI_INT, left(), 2, SCOMM_COMM_WORLD, &r[1]);
  SCOMM_Irecv(&got[2], 1, MPI_INT, left(), MPI_ANY_TAG, SCOMM_COMM_WORLD, &r[2]);
  const int values[3] = {10, 20, 30}, tags[3] = {2, 2, 9};
  for (int i = 0; i < 3; ++i)
    SCOMM_Isend(&values[i], 1, MPI_INT, right(), tags[i], SCOMM_COMM_WORLD, &r[3 + i]);
  SCOMM_Status statuses[6];
  ASSERT_EQ(SCOMM_Waitall(6, r, statuses), 0);
  EXPECT_EQ(got[0], 10);
  EXPECT_EQ(got[1], 20);
  EXPECT_EQ(got[2], 30);
  EXPECT_EQ(statuses[2].SCOMM_TAG, 9);
}

// A message the engine took off MPI while it waited for a receive of any tag from elsewhere is
// still there for a receive posted behind that one (it once waited for a new arrival, forever).
TEST_F(P2pTest, AReceiveBehindAnAnyTagReceiveTakesAMessageAlreadyTaken) {
  if (world_size_ < 2) GTEST_SKIP() << "needs two ranks";
  const int value = 100 + world_rank_;
  SCOMM_Request send = SCOMM_REQUEST_NULL;
  ASSERT_EQ(SCOMM_Isend(&value, 1, MPI_INT, right(), 5, SCOMM_COMM_WORLD, &send), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Barrier(SCOMM_COMM_WORLD), SCOMM_SUCCESS);  // the message has left
  int own = -1, flag = 0;
  SCOMM_Request from_self = SCOMM_REQUEST_NULL;
  ASSERT_EQ(SCOMM_Irecv(&own, 1, MPI_INT, world_rank_, MPI_ANY_TAG, SCOMM_COMM_WORLD, &from_self),
            SCOMM_SUCCESS);
  for (int i = 0; i < 100 && !flag; ++i)  // the engine takes the left rank's message aside
    ASSERT_EQ(SCOMM_Test(&from_self, &flag, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  ASSERT_FALSE(flag);
  int got = -1;
  ASSERT_EQ(SCOMM_Recv(&got, 1, MPI_INT, left(), 5, SCOMM_COMM_WORLD, SCOMM_STATUS_IGNORE),
            SCOMM_SUCCESS);
  EXPECT_EQ(got, 100 + left());
  const int mine = 7;
  ASSERT_EQ(SCOMM_Send(&mine, 1, MPI_INT, world_rank_, 3, SCOMM_COMM_WORLD), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Wait(&from_self, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  EXPECT_EQ(own, 7);
  ASSERT_EQ(SCOMM_Wait(&send, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
}

TEST_F(P2pTest, ProbeThenReceiveWithTheProbedCount) {
  std::vector<double> out(static_cast<std::size_t>(world_rank_ + 3), 1.5);
  SCOMM_Request r;
  SCOMM_Isend(out.data(), static_cast<int>(out.size()), MPI_DOUBLE, right(), 4, SCOMM_COMM_WORLD,
              &r);
  for (const int tag : {4, MPI_ANY_TAG}) {
    SCOMM_Status status;
    ASSERT_EQ(SCOMM_Probe(MPI_ANY_SOURCE, tag, SCOMM_COMM_WORLD, &status), 0);
    EXPECT_EQ(status.SCOMM_SOURCE, left());
    EXPECT_EQ(status.SCOMM_TAG, 4);
    int count = -1;
    SCOMM_Get_count(&status, MPI_DOUBLE, &count);
    EXPECT_EQ(count, left() + 3);
  }
  std::vector<double> in(static_cast<std::size_t>(left() + 3));
  SCOMM_Status status;
  ASSERT_EQ(SCOMM_Recv(in.data(), static_cast<int>(in.size()), MPI_DOUBLE, MPI_ANY_SOURCE,
                       MPI_ANY_TAG, SCOMM_COMM_WORLD, &status),
            0);
  EXPECT_TRUE(std::all_of(in.begin(), in.end(), [](double x) { return x == 1.5; }));
  int flag = 1;
  SCOMM_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, SCOMM_COMM_WORLD, &flag, SCOMM_STATUS_IGNORE);
  EXPECT_EQ(flag, 0);
  SCOMM_Wait(&r, SCOMM_STATUS_IGNORE);
}

// A receive posted before a probe has the first claim on a message both match (MPI's order), so
// the probe describes the next one, which its count then receives whole. The receive of any tag
// waits in scomm's engine, not in MPI: a probe of a named tag must see what the engine gave it.
TEST_F(P2pTest, AProbeDescribesWhatAnEarlierPostedReceiveLeaves) {
  const SCOMM_Comm w = SCOMM_COMM_WORLD;
  const std::array<int, 3> data{7, 8, 9};
  if (world_rank_ != 0) {
    ASSERT_EQ(SCOMM_Barrier(w), 0);
    if (world_rank_ != 1) return;
    ASSERT_EQ(SCOMM_Send(data.data(), 1, MPI_INT, 0, 5, w), 0);
    ASSERT_EQ(SCOMM_Send(data.data(), 3, MPI_INT, 0, 5, w), 0);
    return;
  }
  if (world_size_ < 2) GTEST_SKIP() << "needs two ranks";
  int first = -1;
  SCOMM_Request any_tag = SCOMM_REQUEST_NULL;
  ASSERT_EQ(SCOMM_Irecv(&first, 1, MPI_INT, 1, SCOMM_ANY_TAG, w, &any_tag), 0);
  ASSERT_EQ(SCOMM_Barrier(w), 0);
  SCOMM_Status status;
  ASSERT_EQ(SCOMM_Probe(1, 5, w, &status), 0);
  int count = 0;
  SCOMM_Get_count(&status, MPI_INT, &count);
  EXPECT_EQ(count, 3);
  std::array<int, 3> rest{};
  ASSERT_EQ(SCOMM_Recv(rest.data(), count, MPI_INT, 1, 5, w, SCOMM_STATUS_IGNORE), 0);
  ASSERT_EQ(SCOMM_Wait(&any_tag, SCOMM_STATUS_IGNORE), 0);
  EXPECT_EQ(first, 7);
  EXPECT_EQ(rest, data);
}

TEST_F(P2pTest, ProcNullCompletesAtOnce) {
  int value = 1;
  SCOMM_Status status;
  ASSERT_EQ(SCOMM_Send(&value, 1, MPI_INT, MPI_PROC_NULL, 0, SCOMM_COMM_WORLD), 0);
  ASSERT_EQ(SCOMM_Recv(&value, 1, MPI_INT, MPI_PROC_NULL, 0, SCOMM_COMM_WORLD, &status), 0);
  EXPECT_EQ(status.SCOMM_SOURCE, MPI_PROC_NULL);
  int count = -1;
  SCOMM_Get_count(&status, MPI_INT, &count);
  EXPECT_EQ(count, 0);
}

// A type of absolute addresses at MPI_BOTTOM (null in Open MPI and MPICH) is a message buffer;
// data at address 0 is not.
TEST_F(P2pTest, MessagesAtMpiBottomWithTypesOfAbsoluteAddresses) {
  const SCOMM_Comm w = SCOMM_COMM_WORLD;
  std::vector<int> out(5), in(5, -1), again(5, -1);
  std::iota(out.begin(), out.end(), 10 * world_rank_);
  const AbsoluteInts from(out.data(), 5), into(in.data(), 5), into_again(again.data(), 5);
  SCOMM_Status status;
  ASSERT_EQ(SCOMM_Sendrecv(MPI_BOTTOM, 1, from.type(), right(), 3, MPI_BOTTOM, 1, into.type(),
                           left(), 3, w, &status),
            SCOMM_SUCCESS);
  std::vector<int> expected(5);
  std::iota(expected.begin(), expected.end(), 10 * left());
  EXPECT_EQ(in, expected);
  std::array<SCOMM_Request, 2> requests{SCOMM_REQUEST_NULL, SCOMM_REQUEST_NULL};
  ASSERT_EQ(SCOMM_Irecv(MPI_BOTTOM, 1, into_again.type(), left(), 4, w, &requests[0]),
            SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Isend(MPI_BOTTOM, 1, from.type(), right(), 4, w, &requests[1]), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Waitall(2, requests.data(), SCOMM_STATUSES_IGNORE), SCOMM_SUCCESS);
  EXPECT_EQ(again, expected);
  // In place: packed first (MPICH's MPI_Pack refuses a null buffer; scomm addresses it otherwise).
  ASSERT_EQ(SCOMM_Sendrecv_replace(MPI_BOTTOM, 1, from.type(), right(), 6, left(), 6, w, &status),
            SCOMM_SUCCESS);
  EXPECT_EQ(out, expected);
  SCOMM_Comm_set_errhandler(w, SCOMM_ERRORS_RETURN);
  EXPECT_EQ(error_class_of(SCOMM_Send(nullptr, 1, MPI_INT, right(), 5, w)), SCOMM_ERR_BUFFER);
}

// A receive of any tag waits in scomm's engine, not in MPI, while its process blocks sending a
// message MPI hands over only once it is received (1 MiB: a rendezvous in Open MPI and MPICH; a
// message to oneself in MPICH): every rank's send waited inside MPI for a peer that also waited
// there, its engine receive never posted, until waits took arrived messages for the receives
// waiting in the engine. Blocking sends, a nonblocking one waited for first, and collectives.
TEST_F(P2pTest, ReceivesOfAnyTagNeverStallASendThatNeedsThem) {
  const int n = 1 << 18;
  std::vector<int> out(n, world_rank_), in(n, -1);
  for (int round = 0; round < 3; ++round) {
    SCOMM_Request receive = SCOMM_REQUEST_NULL, send = SCOMM_REQUEST_NULL;
    ASSERT_EQ(SCOMM_Irecv(in.data(), n, MPI_INT, left(), SCOMM_ANY_TAG, SCOMM_COMM_WORLD, &receive),
              SCOMM_SUCCESS);
    if (round == 0) {
      ASSERT_EQ(SCOMM_Send(out.data(), n, MPI_INT, right(), 3, SCOMM_COMM_WORLD), SCOMM_SUCCESS);
    } else {
      ASSERT_EQ(SCOMM_Isend(out.data(), n, MPI_INT, right(), 3, SCOMM_COMM_WORLD, &send),
                SCOMM_SUCCESS);
      if (round == 2) {  // a blocking collective while the message waits for the receive
        std::vector<int> block(n, world_rank_);
        ASSERT_EQ(SCOMM_Bcast(block.data(), n, MPI_INT, 0, SCOMM_COMM_WORLD), SCOMM_SUCCESS);
        EXPECT_EQ(block.back(), 0);
      }
      ASSERT_EQ(SCOMM_Wait(&send, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
    }
    SCOMM_Status status;
    ASSERT_EQ(SCOMM_Wait(&receive, &status), SCOMM_SUCCESS);
    EXPECT_EQ(status.SCOMM_TAG, 3);
    EXPECT_EQ(in.front(), left());
    EXPECT_EQ(in.back(), left());
  }
}

// The same across communicators, which sit on different base communicators: while rank 0's
// receive of any tag on a duplicate waits in the engine, rank 0 blocks on the world in each of
// the ways the C API offers (receive, synchronous send, Waitall, Waitsome, Waitany, Wait, and
// probes of any tag, polled by SCOMM_Iprobe or blocking in SCOMM_Probe), each of which rank 1 lets
// complete only after its 1 MiB send on the duplicate did, which needs rank 0 to take that
// message for its engine receive while it blocks.
TEST_F(P2pTest, ReceivesOfAnyTagElsewhereProgressWhileTheWorldBlocks) {
  if (world_size_ < 2) GTEST_SKIP() << "needs two ranks";
  SCOMM_Comm other = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &other), SCOMM_SUCCESS);
  const int n = 1 << 18;
  std::vector<int> big(n, world_rank_);
  for (int way = 0; way < 8; ++way) {
    int token = world_rank_ == 1 ? 100 + way : -1;
    if (world_rank_ == 1) {
      ASSERT_EQ(SCOMM_Send(big.data(), n, MPI_INT, 0, way, other), SCOMM_SUCCESS);
      if (way == 1)
        ASSERT_EQ(SCOMM_Recv(&token, 1, MPI_INT, 0, 9, SCOMM_COMM_WORLD, SCOMM_STATUS_IGNORE), 0);
      else
        ASSERT_EQ(SCOMM_Send(&token, 1, MPI_INT, 0, 9, SCOMM_COMM_WORLD), SCOMM_SUCCESS);
    } else if (world_rank_ == 0) {
      std::vector<int> in(n, -1);
      SCOMM_Request engine = SCOMM_REQUEST_NULL, direct = SCOMM_REQUEST_NULL;
      ASSERT_EQ(SCOMM_Irecv(in.data(), n, MPI_INT, 1, SCOMM_ANY_TAG, other, &engine), 0);
      if (way == 0) {
        ASSERT_EQ(SCOMM_Recv(&token, 1, MPI_INT, 1, 9, SCOMM_COMM_WORLD, SCOMM_STATUS_IGNORE), 0);
      } else if (way == 1) {
        token = 101;
        ASSERT_EQ(SCOMM_Ssend(&token, 1, MPI_INT, 1, 9, SCOMM_COMM_WORLD), SCOMM_SUCCESS);
      } else if (way >= 6) {  // probes of any tag, polled or blocking, then the receive
        SCOMM_Status probed;
        if (way == 6)
          for (int flag = 0; flag == 0;)
            ASSERT_EQ(SCOMM_Iprobe(1, SCOMM_ANY_TAG, SCOMM_COMM_WORLD, &flag, &probed), 0);
        else
          ASSERT_EQ(SCOMM_Probe(1, SCOMM_ANY_TAG, SCOMM_COMM_WORLD, &probed), SCOMM_SUCCESS);
        EXPECT_EQ(probed.SCOMM_TAG, 9);
        ASSERT_EQ(SCOMM_Recv(&token, 1, MPI_INT, 1, 9, SCOMM_COMM_WORLD, SCOMM_STATUS_IGNORE), 0);
      } else {
        ASSERT_EQ(SCOMM_Irecv(&token, 1, MPI_INT, 1, 9, SCOMM_COMM_WORLD, &direct), 0);
        int index = -1, outcount = 0;
        const int rc = way == 2   ? SCOMM_Waitall(1, &direct, SCOMM_STATUSES_IGNORE)
                       : way == 3 ? SCOMM_Waitsome(1, &direct, &outcount, &index, nullptr)
                       : way == 4 ? SCOMM_Waitany(1, &direct, &index, SCOMM_STATUS_IGNORE)
                                  : SCOMM_Wait(&direct, SCOMM_STATUS_IGNORE);
        ASSERT_EQ(rc, SCOMM_SUCCESS) << "way " << way;
        EXPECT_EQ(direct, SCOMM_REQUEST_NULL);
      }
      SCOMM_Status status;
      ASSERT_EQ(SCOMM_Wait(&engine, &status), SCOMM_SUCCESS);
      EXPECT_EQ(status.SCOMM_TAG, way);
      EXPECT_EQ(in.front(), 1);
      EXPECT_EQ(in.back(), 1);
    }
    EXPECT_EQ(token, world_rank_ < 2 ? 100 + way : -1) << "way " << way;
  }
  ASSERT_EQ(SCOMM_Comm_free(&other), SCOMM_SUCCESS);
}

// Receives of any source and tag waiting at once on eight communicators, which sit on several
// base communicators (and several on one): every message goes to its own communicator's receive
// whatever the order of arrival and completion, and receives cancelled among them (taken out of
// the engine's bookkeeping of bases) leave the others served.
TEST_F(P2pTest, AnyTagReceivesOnManyCommunicatorsEachTakeTheirOwn) {
  constexpr int kComms = 8;
  std::vector<SCOMM_Comm> comms(kComms, SCOMM_COMM_NULL);
  comms[0] = SCOMM_COMM_WORLD;
  for (int i = 1; i < kComms; ++i)
    ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &comms[static_cast<std::size_t>(i)]), 0);
  std::mt19937 random(static_cast<unsigned>(world_rank_) + 7);
  for (int round = 0; round < 3; ++round) {
    const bool cancel_some = round == 2;
    std::vector<int> in(kComms, -1), out(kComms);
    std::vector<SCOMM_Request> receives(kComms), sends(kComms, SCOMM_REQUEST_NULL);
    for (int i = 0; i < kComms; ++i)
      ASSERT_EQ(
          SCOMM_Irecv(&in[static_cast<std::size_t>(i)], 1, MPI_INT, SCOMM_ANY_SOURCE, SCOMM_ANY_TAG,
                      comms[static_cast<std::size_t>(i)], &receives[static_cast<std::size_t>(i)]),
          0);
    const auto cancelled = [&](int i) { return cancel_some && i % 3 == 1; };
    for (int i = 0; i < kComms; ++i)
      if (cancelled(i)) {
        ASSERT_EQ(SCOMM_Cancel(&receives[static_cast<std::size_t>(i)]), 0);
      }
    std::vector<int> order(kComms);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), random);
    for (const int i : order) {
      if (cancelled(i)) continue;
      out[static_cast<std::size_t>(i)] = 1000 * i + world_rank_;
      ASSERT_EQ(
          SCOMM_Isend(&out[static_cast<std::size_t>(i)], 1, MPI_INT, right(), 40 + i,
                      comms[static_cast<std::size_t>(i)], &sends[static_cast<std::size_t>(i)]),
          0);
    }
    for (int done = 0; done < kComms; ++done) {
      int index = -1;
      SCOMM_Status status;
      ASSERT_EQ(SCOMM_Waitany(kComms, receives.data(), &index, &status), 0);
      ASSERT_GE(index, 0);
      int flag = 0;
      SCOMM_Test_cancelled(&status, &flag);
      EXPECT_EQ(flag != 0, cancelled(index)) << "communicator " << index;
      if (flag) continue;
      EXPECT_EQ(in[static_cast<std::size_t>(index)], 1000 * index + left()) << "round " << round;
      EXPECT_EQ(status.SCOMM_TAG, 40 + index);
      EXPECT_EQ(status.SCOMM_SOURCE, left());
    }
    ASSERT_EQ(SCOMM_Waitall(kComms, sends.data(), SCOMM_STATUSES_IGNORE), 0);
  }
  for (int i = 1; i < kComms; ++i)
    ASSERT_EQ(SCOMM_Comm_free(&comms[static_cast<std::size_t>(i)]), 0);
}

// Buffered sends complete before their receive is posted, through the buffer attached with
// MPI_Buffer_attach; ready sends arrive at receives posted before them, one of any tag (waiting
// in scomm's engine) included; both also as persistent requests.
TEST_F(P2pTest, BufferedAndReadySendsArrive) {
  int pack = 0;
  MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, &pack);
  // Room for more than the three messages: MPICH aligns within the buffer.
  std::vector<char> attached(static_cast<std::size_t>(8 * (pack + MPI_BSEND_OVERHEAD)));
  MPI_Buffer_attach(attached.data(), static_cast<int>(attached.size()));
  const int mine[3] = {10 * world_rank_, 10 * world_rank_ + 1, 10 * world_rank_ + 2};
  SCOMM_Request sends[2], persistent = SCOMM_REQUEST_NULL;
  ASSERT_EQ(SCOMM_Bsend(&mine[0], 1, MPI_INT, right(), 1, SCOMM_COMM_WORLD), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Ibsend(&mine[1], 1, MPI_INT, right(), 2, SCOMM_COMM_WORLD, &sends[0]),
            SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Wait(&sends[0], SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);  // buffered: no receive
  ASSERT_EQ(SCOMM_Bsend_init(&mine[2], 1, MPI_INT, right(), 3, SCOMM_COMM_WORLD, &persistent),
            SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Start(&persistent), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Wait(&persistent, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Request_free(&persistent), SCOMM_SUCCESS);
  for (int tag = 1; tag <= 3; ++tag) {
    int got = -1;
    ASSERT_EQ(SCOMM_Recv(&got, 1, MPI_INT, left(), tag, SCOMM_COMM_WORLD, SCOMM_STATUS_IGNORE),
              SCOMM_SUCCESS);
    EXPECT_EQ(got, 10 * left() + tag - 1);
  }
  void* detached = nullptr;
  int size = 0;
  MPI_Buffer_detach(&detached, &size);

  int got[3] = {-1, -1, -1};
  SCOMM_Request receives[3];
  ASSERT_EQ(SCOMM_Irecv(&got[0], 1, MPI_INT, left(), 4, SCOMM_COMM_WORLD, &receives[0]), 0);
  ASSERT_EQ(SCOMM_Irecv(&got[1], 1, MPI_INT, left(), SCOMM_ANY_TAG, SCOMM_COMM_WORLD, &receives[1]),
            0);
  ASSERT_EQ(SCOMM_Irecv(&got[2], 1, MPI_INT, SCOMM_ANY_SOURCE, 6, SCOMM_COMM_WORLD, &receives[2]),
            0);
  ASSERT_EQ(SCOMM_Barrier(SCOMM_COMM_WORLD), SCOMM_SUCCESS);  // every receive is posted
  ASSERT_EQ(SCOMM_Rsend(&mine[0], 1, MPI_INT, right(), 4, SCOMM_COMM_WORLD), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Irsend(&mine[1], 1, MPI_INT, right(), 5, SCOMM_COMM_WORLD, &sends[0]), 0);
  ASSERT_EQ(SCOMM_Rsend_init(&mine[2], 1, MPI_INT, right(), 6, SCOMM_COMM_WORLD, &sends[1]), 0);
  ASSERT_EQ(SCOMM_Start(&sends[1]), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Waitall(3, receives, SCOMM_STATUSES_IGNORE), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Waitall(2, sends, SCOMM_STATUSES_IGNORE), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Request_free(&sends[1]), SCOMM_SUCCESS);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(got[i], 10 * left() + i);
}

// Five ints received as triples: no whole count (MPI_UNDEFINED), five elements, as MPI's status
// says for the same message; and the setters change what the getters read.
TEST_F(P2pTest, ElementsAndCountsOfAPartialTypeAreMpis) {
  MPI_Datatype triple = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(3, MPI_INT, &triple);
  MPI_Type_commit(&triple);
  const int five[5] = {1, 2, 3, 4, 5};
  int into[6] = {};
  SCOMM_Request send = SCOMM_REQUEST_NULL;
  ASSERT_EQ(SCOMM_Isend(five, 5, MPI_INT, right(), 8, SCOMM_COMM_WORLD, &send), SCOMM_SUCCESS);
  SCOMM_Status status;
  ASSERT_EQ(SCOMM_Recv(into, 2, triple, left(), 8, SCOMM_COMM_WORLD, &status), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Wait(&send, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  MPI_Request mpi_send;
  MPI_Isend(five, 5, MPI_INT, right(), 8, MPI_COMM_WORLD, &mpi_send);
  MPI_Status mpi_status;
  MPI_Recv(into, 2, triple, left(), 8, MPI_COMM_WORLD, &mpi_status);
  MPI_Wait(&mpi_send, MPI_STATUS_IGNORE);
  int count = 0, elements = 0, mpi_count = 1, mpi_elements = 1;
  ASSERT_EQ(SCOMM_Get_count(&status, triple, &count), SCOMM_SUCCESS);
  MPI_Get_count(&mpi_status, triple, &mpi_count);
  EXPECT_EQ(count, mpi_count);
  EXPECT_EQ(count, MPI_UNDEFINED);
  SCOMM_Comm_set_errhandler(SCOMM_COMM_WORLD, SCOMM_ERRORS_RETURN);
  if (smpi_defect::kNoGetElements) {
    EXPECT_EQ(error_class_of(SCOMM_Get_elements(&status, triple, &elements)),
              SCOMM_ERR_NOT_SUPPORTED);
  } else {
    ASSERT_EQ(SCOMM_Get_elements(&status, triple, &elements), SCOMM_SUCCESS);
    MPI_Get_elements(&mpi_status, triple, &mpi_elements);
    EXPECT_EQ(elements, mpi_elements);
    EXPECT_EQ(elements, 5);
  }
  ASSERT_EQ(SCOMM_Status_set_elements(&status, MPI_INT, 6), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Get_count(&status, triple, &count), SCOMM_SUCCESS);
  if (!smpi_defect::kStatusSetElements) {
    EXPECT_EQ(count, 2);
  }
  int cancelled = 1;
  ASSERT_EQ(SCOMM_Status_set_cancelled(&status, 1), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Test_cancelled(&status, &cancelled), SCOMM_SUCCESS);
  EXPECT_EQ(cancelled, 1);
  EXPECT_EQ(error_class_of(SCOMM_Get_elements(&status, MPI_DATATYPE_NULL, &count)), SCOMM_ERR_TYPE);
  EXPECT_EQ(error_class_of(SCOMM_Status_set_elements(&status, MPI_INT, -1)), SCOMM_ERR_COUNT);
  EXPECT_EQ(error_class_of(SCOMM_Get_elements(nullptr, MPI_INT, &count)), SCOMM_ERR_ARG);
  SCOMM_Comm_set_errhandler(SCOMM_COMM_WORLD, SCOMM_ERRORS_ARE_FATAL);
  MPI_Type_free(&triple);
}

// SCOMM_Request_get_status tells whether a request has completed, and its status, without
// completing it: receives of every kind (MPI's, the engine's, a persistent one's), a nonblocking
// barrier, MPI_PROC_NULL and SCOMM_REQUEST_NULL; the wait after gives the same status.
TEST_F(P2pTest, RequestGetStatusLeavesTheRequestToItsWait) {
  int got[3] = {-1, -1, -1};
  SCOMM_Request r[5];
  ASSERT_EQ(SCOMM_Irecv(&got[0], 1, MPI_INT, left(), 11, SCOMM_COMM_WORLD, &r[0]), 0);
  ASSERT_EQ(SCOMM_Irecv(&got[1], 1, MPI_INT, left(), SCOMM_ANY_TAG, SCOMM_COMM_WORLD, &r[1]), 0);
  ASSERT_EQ(SCOMM_Recv_init(&got[2], 1, MPI_INT, left(), 13, SCOMM_COMM_WORLD, &r[2]), 0);
  ASSERT_EQ(SCOMM_Start(&r[2]), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Irecv(&got[0], 1, MPI_INT, SCOMM_PROC_NULL, 0, SCOMM_COMM_WORLD, &r[3]), 0);
  const SCOMM_Request kept[4] = {r[0], r[1], r[2], r[3]};
  int flag = 1;
  SCOMM_Status status;
  for (int i = 0; i < 3; ++i) {  // nothing is sent before this rank has passed the barrier
    ASSERT_EQ(SCOMM_Request_get_status(r[i], &flag, &status), SCOMM_SUCCESS);
    EXPECT_EQ(flag, 0) << i;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  ASSERT_EQ(SCOMM_Request_get_status(r[3], &flag, &status), SCOMM_SUCCESS);
  EXPECT_EQ(flag, 1);
  EXPECT_EQ(status.SCOMM_SOURCE, SCOMM_PROC_NULL);
  ASSERT_EQ(SCOMM_Request_get_status(SCOMM_REQUEST_NULL, &flag, &status), SCOMM_SUCCESS);
  EXPECT_EQ(flag, 1);
  EXPECT_EQ(status.SCOMM_SOURCE, SCOMM_ANY_SOURCE);
  ASSERT_EQ(SCOMM_Ibarrier(SCOMM_COMM_WORLD, &r[4]), SCOMM_SUCCESS);
  const int values[3] = {10 * world_rank_, 10 * world_rank_ + 1, 10 * world_rank_ + 2};
  SCOMM_Request sends[3];
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(SCOMM_Isend(&values[i], 1, MPI_INT, right(), 11 + i, SCOMM_COMM_WORLD, &sends[i]), 0);
  for (int i = 0; i < 5; ++i) {
    for (flag = 0; flag == 0;)
      ASSERT_EQ(SCOMM_Request_get_status(r[i], &flag, &status), SCOMM_SUCCESS);
    if (i < 3) {
      EXPECT_EQ(status.SCOMM_SOURCE, left()) << i;
      EXPECT_EQ(status.SCOMM_TAG, 11 + i) << i;
      EXPECT_EQ(got[i], 10 * left() + i) << i;
      SCOMM_Status waited;
      ASSERT_EQ(SCOMM_Wait(&r[i], &waited), SCOMM_SUCCESS);
      EXPECT_EQ(waited.SCOMM_SOURCE, status.SCOMM_SOURCE);
      EXPECT_EQ(waited.SCOMM_TAG, status.SCOMM_TAG);
    } else {
      ASSERT_EQ(SCOMM_Wait(&r[i], SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
    }
  }
  EXPECT_EQ(r[2], kept[2]);  // persistent: kept, inactive
  EXPECT_EQ(r[0], SCOMM_REQUEST_NULL);
  ASSERT_EQ(SCOMM_Request_free(&r[2]), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Waitall(3, sends, SCOMM_STATUSES_IGNORE), SCOMM_SUCCESS);
}

// A shift along a reversed world by SCOMM_Sendrecv_replace and by MPI_Sendrecv_replace on the
// same ranks: the buffers, a strided type's gaps left alone, and the statuses (source, tag,
// count) agree, for named and wildcard sources and tags, empty messages, and for MPI_PROC_NULL
// at both ends.
TEST_F(P2pTest, SendrecvReplaceShiftsAsMpiDoes) {
  MPI_Comm mpi = MPI_COMM_NULL;
  SCOMM_Comm mine = SCOMM_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, 0, -world_rank_, &mpi);
  ASSERT_EQ(SCOMM_Comm_split(SCOMM_COMM_WORLD, 0, -world_rank_, &mine), SCOMM_SUCCESS);
  int rank = 0, size = 0;
  MPI_Comm_rank(mpi, &rank);
  MPI_Comm_size(mpi, &size);
  MPI_Datatype every_other = MPI_DATATYPE_NULL;  // 3 ints, each followed by a gap
  MPI_Type_vector(3, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  struct Shift {
    int by;
    MPI_Datatype type;
    int count;
    bool wildcards;
  };
  // A count of 0 sends an empty message (Open MPI's MPI_Pack refused scomm's empty packing).
  for (const Shift shift : {Shift{1, MPI_INT, 5, false}, Shift{2, every_other, 2, true},
                            Shift{size - 1, every_other, 1, false}, Shift{0, MPI_INT, 3, true},
                            Shift{1, MPI_INT, 0, false}, Shift{1, every_other, 0, true}}) {
    if (shift.count == 0 && smpi_defect::kSendrecvReplaceOfNothing) continue;
    const int dest = (rank + shift.by) % size, source = (rank + size - shift.by) % size;
    std::vector<int> theirs(12), ours(12);
    std::iota(theirs.begin(), theirs.end(), 100 * rank);
    ours = theirs;
    MPI_Status mpi_status;
    MPI_Sendrecv_replace(theirs.data(), shift.count, shift.type, dest, 7 + shift.by,
                         shift.wildcards ? MPI_ANY_SOURCE : source,
                         shift.wildcards ? MPI_ANY_TAG : 7 + shift.by, mpi, &mpi_status);
    SCOMM_Status status;
    ASSERT_EQ(SCOMM_Sendrecv_replace(ours.data(), shift.count, shift.type, dest, 7 + shift.by,
                                     shift.wildcards ? SCOMM_ANY_SOURCE : source,
                                     shift.wildcards ? SCOMM_ANY_TAG : 7 + shift.by, mine, &status),
              SCOMM_SUCCESS);
    EXPECT_EQ(ours, theirs) << "shift by " << shift.by;
    const bool from_self = source == rank;
    EXPECT_EQ(status.SCOMM_SOURCE,
              from_self && smpi_defect::kSendrecvReplaceFromSelf ? source : mpi_status.MPI_SOURCE);
    EXPECT_EQ(status.SCOMM_TAG, mpi_status.MPI_TAG);
    int count = -1, mpi_count = -2;
    SCOMM_Get_count(&status, shift.type, &count);
    MPI_Get_count(&mpi_status, shift.type, &mpi_count);
    EXPECT_EQ(count, mpi_count);
    // A receive from any source for any tag would take the next shift's message from a rank
    // already there: every rank finishes this shift first.
    MPI_Barrier(MPI_COMM_WORLD);
  }
  std::vector<int> kept = {1, 2, 3};
  SCOMM_Status status;
  ASSERT_EQ(SCOMM_Sendrecv_replace(kept.data(), 3, MPI_INT, SCOMM_PROC_NULL, 0, SCOMM_PROC_NULL, 0,
                                   mine, &status),
            SCOMM_SUCCESS);
  EXPECT_EQ(kept, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(status.SCOMM_SOURCE, SCOMM_PROC_NULL);
  MPI_Type_free(&every_other);
  SCOMM_Comm_free(&mine);
  MPI_Comm_free(&mpi);
}

// Receives through the matching engine (MPI_ANY_TAG), on MPI from any source, and on MPI from a
// named source (a plain request), each cancelled before anything is sent. MPI lets a request be
// cancelled twice, the second changing nothing (Open MPI 4.1 does not survive it for a receive).
TEST_F(P2pTest, CancelledReceiveCompletesCancelledOnceOrTwice) {
  int value = 0;
  for (const int source : {MPI_ANY_SOURCE, left()})
    for (const int tag : {3, MPI_ANY_TAG})
      for (const int cancels : {1, 2}) {
        SCOMM_Request r;
        SCOMM_Irecv(&value, 1, MPI_INT, source, tag, SCOMM_COMM_WORLD, &r);
        for (int c = 0; c < cancels; ++c) ASSERT_EQ(SCOMM_Cancel(&r), 0);
        int cancelled = 0;
        ASSERT_NO_FATAL_FAILURE(wait_cancelled(r, &cancelled));
        EXPECT_EQ(cancelled, 1) << source << " " << tag << " " << cancels;
      }
}

// A freed send still delivers its message.
TEST_F(P2pTest, FreedRequestsCompleteOnTheirOwn) {
  const int value = world_rank_;
  SCOMM_Request send;
  ASSERT_EQ(SCOMM_Isend(&value, 1, MPI_INT, right(), 21, SCOMM_COMM_WORLD, &send), 0);
  ASSERT_EQ(SCOMM_Request_free(&send), 0);
  EXPECT_EQ(send, SCOMM_REQUEST_NULL);
  int got = -1;
  ASSERT_EQ(SCOMM_Recv(&got, 1, MPI_INT, left(), 21, SCOMM_COMM_WORLD, SCOMM_STATUS_IGNORE), 0);
  EXPECT_EQ(got, left());
  MPI_Barrier(MPI_COMM_WORLD);  // every freed send has been received
}

// A receive freed before a message matched it still takes the next message it matches, as in
// MPI: the receive after it gets the second message. Each kind of receive (a direct one of a
// tag, one of any tag that the engine matches) against MPI's own on MPI_COMM_SELF.
TEST_F(P2pTest, AFreedReceiveStillTakesTheNextMessageItMatches) {
  static int freed_into[2][2];  // [tag kind][scomm, MPI]: outlive the freed receives
  SCOMM_Comm self = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, world_rank_, world_rank_, 1, &self), 0);
  const int tags[2] = {5, MPI_ANY_TAG};
  for (int kind = 0; kind < 2; ++kind) {
    int* into = freed_into[kind];
    into[0] = into[1] = -1;
    const int values[2] = {1, 2};
    int got[2] = {-1, -1};
    SCOMM_Request freed = SCOMM_REQUEST_NULL;
    ASSERT_EQ(SCOMM_Irecv(&into[0], 1, MPI_INT, 0, tags[kind], self, &freed), 0);
    ASSERT_EQ(SCOMM_Request_free(&freed), 0);
    SCOMM_Request sends[2];  // nonblocking: MPICH hands a message to oneself over when received
    for (int i = 0; i < 2; ++i)
      ASSERT_EQ(SCOMM_Isend(&values[i], 1, MPI_INT, 0, 5, self, &sends[i]), 0);
    ASSERT_EQ(SCOMM_Recv(&got[0], 1, MPI_INT, 0, 5, self, SCOMM_STATUS_IGNORE), 0);
    ASSERT_EQ(SCOMM_Waitall(2, sends, SCOMM_STATUSES_IGNORE), 0);
    MPI_Request native = MPI_REQUEST_NULL, native_sends[2];
    MPI_Irecv(&into[1], 1, MPI_INT, 0, tags[kind], MPI_COMM_SELF, &native);
    MPI_Request_free(&native);
    for (int i = 0; i < 2; ++i)
      MPI_Isend(&values[i], 1, MPI_INT, 0, 5, MPI_COMM_SELF, &native_sends[i]);
    MPI_Recv(&got[1], 1, MPI_INT, 0, 5, MPI_COMM_SELF, MPI_STATUS_IGNORE);
    MPI_Waitall(2, native_sends, MPI_STATUSES_IGNORE);
    EXPECT_EQ(got[1], 2) << "MPI's own, tag kind " << kind;
    EXPECT_EQ(got[0], got[1]) << "tag kind " << kind;
    // The freed receives' messages arrive as progress goes on (bounded: a failure, not a hang).
    const double deadline = MPI_Wtime() + 10.0;
    while ((into[0] != 1 || into[1] != 1) && MPI_Wtime() < deadline) {
      int flag = 0;
      ASSERT_EQ(SCOMM_Iprobe(0, 6, self, &flag, SCOMM_STATUS_IGNORE), 0);
      MPI_Iprobe(0, 6, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE);
    }
    EXPECT_EQ(into[0], 1) << "tag kind " << kind;
    EXPECT_EQ(into[1], 1) << "MPI's own, tag kind " << kind;
  }
  ASSERT_EQ(SCOMM_Comm_free(&self), 0);
}

TEST_F(P2pTest, WaitanyTestallAndSsend) {
  int got[2] = {-1, -1};
  SCOMM_Request r[2];
  SCOMM_Irecv(&got[0], 1, MPI_INT, left(), 1, SCOMM_COMM_WORLD, &r[0]);
  SCOMM_Irecv(&got[1], 1, MPI_INT, left(), 2, SCOMM_COMM_WORLD, &r[1]);
  int flag = 1;
  ASSERT_EQ(SCOMM_Testall(2, r, &flag, SCOMM_STATUSES_IGNORE), 0);
  if (world_size_ > 1) {
    EXPECT_EQ(flag, 0);
  }
  const int value = world_rank_;
  SCOMM_Request s;
  SCOMM_Issend(&value, 1, MPI_INT, right(), 2, SCOMM_COMM_WORLD, &s);
  int index = -1;
  SCOMM_Status status;
  ASSERT_EQ(SCOMM_Waitany(2, r, &index, &status), 0);
  EXPECT_EQ(index, 1);
  EXPECT_EQ(r[1], SCOMM_REQUEST_NULL);
  EXPECT_EQ(got[1], left());
  SCOMM_Wait(&s, SCOMM_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);  // no tag-1 message before every Waitany above has returned
  ASSERT_EQ(SCOMM_Ssend(&value, 1, MPI_INT, right(), 1, SCOMM_COMM_WORLD), 0);
  ASSERT_EQ(SCOMM_Wait(&r[0], SCOMM_STATUS_IGNORE), 0);
  EXPECT_EQ(got[0], left());
  ASSERT_EQ(SCOMM_Waitany(2, r, &index, SCOMM_STATUS_IGNORE), 0);
  EXPECT_EQ(index, MPI_UNDEFINED);
}

// SCOMM_Waitall, or SCOMM_Testall until it completes them, with statuses, over requests MPI
// completes alone (named receives, sends, MPI_PROC_NULL) and over those mixed with receives the
// matching engine serves (MPI_ANY_SOURCE): every status names the sender, tag and count.
TEST_F(P2pTest, WaitallAndTestallReportEveryStatusOverEveryKindOfRequest) {
  const auto test_all = [](int count, SCOMM_Request* requests, SCOMM_Status* statuses) {
    int flag = 0, rc = SCOMM_SUCCESS;
    while (flag == 0 && rc == SCOMM_SUCCESS) rc = SCOMM_Testall(count, requests, &flag, statuses);
    return rc;
  };
  for (const auto complete : {SCOMM_Waitall, +test_all})
    for (const bool mixed : {false, true}) {
      const int sent[2] = {world_rank_, world_rank_ + 100};
      int got[3] = {-1, -1, -1};
      SCOMM_Request r[5];
      ASSERT_EQ(SCOMM_Irecv(&got[0], 1, MPI_INT, left(), 11, SCOMM_COMM_WORLD, &r[0]), 0);
      ASSERT_EQ(SCOMM_Irecv(&got[1], 1, MPI_INT, mixed ? MPI_ANY_SOURCE : left(), 12,
                            SCOMM_COMM_WORLD, &r[1]),
                0);
      ASSERT_EQ(SCOMM_Irecv(&got[2], 1, MPI_INT, MPI_PROC_NULL, 13, SCOMM_COMM_WORLD, &r[2]), 0);
      ASSERT_EQ(SCOMM_Isend(&sent[0], 1, MPI_INT, right(), 11, SCOMM_COMM_WORLD, &r[3]), 0);
      ASSERT_EQ(SCOMM_Isend(&sent[1], 1, MPI_INT, right(), 12, SCOMM_COMM_WORLD, &r[4]), 0);
      SCOMM_Status statuses[5];
      ASSERT_EQ(complete(5, r, statuses), 0);
      for (const SCOMM_Request request : r) EXPECT_EQ(request, SCOMM_REQUEST_NULL);
      EXPECT_EQ(got[0], left());
      EXPECT_EQ(got[1], left() + 100);
      EXPECT_EQ(got[2], -1);
      for (int i = 0; i < 2; ++i) {
        EXPECT_EQ(statuses[i].SCOMM_SOURCE, left()) << i;
        EXPECT_EQ(statuses[i].SCOMM_TAG, 11 + i) << i;
        int count = -1;
        SCOMM_Get_count(&statuses[i], MPI_INT, &count);
        EXPECT_EQ(count, 1) << i;
      }
      EXPECT_EQ(statuses[2].SCOMM_SOURCE, MPI_PROC_NULL);
      int count = -1;
      SCOMM_Get_count(&statuses[2], MPI_INT, &count);
      EXPECT_EQ(count, 0);
    }
}

// Testall over one complete and one pending receive says "not yet" and changes neither: both are
// reported once the second message arrives, whichever way they are completed then -- Testall
// again, Waitall beside a request of another kind, or Wait one by one (SimGrid SMPI's MPI_Testall
// frees the complete one there, whose status scomm keeps; its handle must not dangle).
TEST_F(P2pTest, TestallLeavesEveryRequestAsItWasUntilAllAreComplete) {
  for (int form = 0; form < 3; ++form) {
    int got[2][3] = {{-1, -1, -1}, {-1, -1, -1}};
    const int sent[2][2] = {{world_rank_, world_rank_ + 1}, {world_rank_ + 100, 0}};
    SCOMM_Request r[3] = {SCOMM_REQUEST_NULL, SCOMM_REQUEST_NULL, SCOMM_REQUEST_NULL};
    ASSERT_EQ(SCOMM_Irecv(got[0], 3, MPI_INT, left(), 21, SCOMM_COMM_WORLD, &r[0]), 0);
    ASSERT_EQ(SCOMM_Irecv(got[1], 3, MPI_INT, left(), 22, SCOMM_COMM_WORLD, &r[1]), 0);
    ASSERT_EQ(SCOMM_Send(sent[0], 2, MPI_INT, right(), 21, SCOMM_COMM_WORLD), 0);
    // The first message has arrived once a receive of a later one from the same sender has.
    int marker = -1;
    ASSERT_EQ(SCOMM_Sendrecv(sent[0], 1, MPI_INT, right(), 23, &marker, 1, MPI_INT, left(), 23,
                             SCOMM_COMM_WORLD, SCOMM_STATUS_IGNORE),
              0);
    SCOMM_Status statuses[3];
    int flag = -1;
    for (int i = 0; i < 3; ++i) {
      ASSERT_EQ(SCOMM_Testall(2, r, &flag, statuses), 0);
      ASSERT_EQ(flag, 0);
      EXPECT_NE(r[0], SCOMM_REQUEST_NULL);
      EXPECT_NE(r[1], SCOMM_REQUEST_NULL);
    }
    // Messages to oneself in between: where a test did free the first request in MPI, their
    // requests take its memory, so that a handle left dangling shows.
    for (int k = 0; k < 8; ++k) {
      int echo = -1;
      ASSERT_EQ(SCOMM_Sendrecv(&k, 1, MPI_INT, world_rank_, 24, &echo, 1, MPI_INT, world_rank_, 24,
                               SCOMM_COMM_WORLD, SCOMM_STATUS_IGNORE),
                0);
    }
    MPI_Barrier(MPI_COMM_WORLD);  // no second message before every test above has returned
    ASSERT_EQ(SCOMM_Send(sent[1], 1, MPI_INT, right(), 22, SCOMM_COMM_WORLD), 0);
    if (form == 0) {
      while (flag == 0) ASSERT_EQ(SCOMM_Testall(2, r, &flag, statuses), 0);
    } else if (form == 1) {
      ASSERT_EQ(SCOMM_Ibarrier(SCOMM_COMM_WORLD, &r[2]), 0);
      ASSERT_EQ(SCOMM_Waitall(3, r, statuses), 0);
    } else {
      for (int i = 1; i >= 0; --i) ASSERT_EQ(SCOMM_Wait(&r[i], &statuses[i]), 0);
    }
    EXPECT_EQ(got[0][0], left()) << form;
    EXPECT_EQ(got[0][1], left() + 1) << form;
    EXPECT_EQ(got[1][0], left() + 100) << form;
    for (int i = 0; i < 2; ++i) {
      EXPECT_EQ(r[i], SCOMM_REQUEST_NULL) << form;
      EXPECT_EQ(statuses[i].SCOMM_SOURCE, left()) << form << i;
      EXPECT_EQ(statuses[i].SCOMM_TAG, 21 + i) << form << i;
      int count = -1;
      SCOMM_Get_count(&statuses[i], MPI_INT, &count);
      EXPECT_EQ(count, 2 - i) << form << i;
    }
  }
}

// A receive holds its communicator's context until it completes: a communicator created after
// the first is freed gets another context, so its message never matches the old receive, which
// is then cancelled.
TEST_F(P2pTest, APendingReceiveKeepsTheContextOfAFreedCommunicator) {
  SCOMM_Comm first = SCOMM_COMM_NULL, second = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, 0, world_size_ - 1, 1, &first), 0);
  int stale = -1, got = -1;
  SCOMM_Request pending = SCOMM_REQUEST_NULL, receive = SCOMM_REQUEST_NULL;
  ASSERT_EQ(SCOMM_Irecv(&stale, 1, MPI_INT, left(), 5, first, &pending), 0);
  ASSERT_EQ(SCOMM_Comm_free(&first), 0);
  ASSERT_EQ(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, 0, world_size_ - 1, 1, &second), 0);
  ASSERT_EQ(SCOMM_Irecv(&got, 1, MPI_INT, left(), 5, second, &receive), 0);
  const int value = world_rank_;
  ASSERT_EQ(SCOMM_Send(&value, 1, MPI_INT, right(), 5, second), 0);
  int done = 0;
  const double deadline = MPI_Wtime() + 20.0;  // a failure, not a hang, if the message went astray
  while (!done && MPI_Wtime() < deadline) ASSERT_EQ(SCOMM_Test(&receive, &done, nullptr), 0);
  ASSERT_EQ(done, 1);
  EXPECT_EQ(got, left());
  ASSERT_EQ(SCOMM_Test(&pending, &done, nullptr), 0);
  EXPECT_EQ(done, 0);
  ASSERT_EQ(SCOMM_Cancel(&pending), 0);
  int cancelled = 0;
  ASSERT_NO_FATAL_FAILURE(wait_cancelled(pending, &cancelled));
  EXPECT_EQ(cancelled, 1);
  EXPECT_EQ(stale, -1);
  SCOMM_Comm_free(&second);
}

// A message taken off MPI (by a probe of any tag, through scomm's engine) and never received when
// its communicator is freed is received aside: its sender's rendezvous completes, where before it
// waited forever.
TEST_F(P2pTest, AMessageTakenAndNeverReceivedIsReceivedAsideAtTheFree) {
  SCOMM_Comm comm = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, 0, world_size_ - 1, 1, &comm), 0);
  const std::vector<char> big(1 << 20, 'x');  // beyond any eager limit
  SCOMM_Request send = SCOMM_REQUEST_NULL;
  ASSERT_EQ(
      SCOMM_Isend(big.data(), static_cast<int>(big.size()), MPI_CHAR, right(), 7, comm, &send), 0);
  int arrived = 0;
  while (!arrived) {
    ASSERT_EQ(SCOMM_Iprobe(SCOMM_ANY_SOURCE, SCOMM_ANY_TAG, comm, &arrived, SCOMM_STATUS_IGNORE),
              0);
  }
  ASSERT_EQ(SCOMM_Comm_free(&comm), 0);
  int done = 0;
  const double deadline = MPI_Wtime() + 20.0;  // a failure, not a hang
  while (!done && MPI_Wtime() < deadline) ASSERT_EQ(SCOMM_Test(&send, &done, nullptr), 0);
  EXPECT_EQ(done, 1) << "the sender waits for a message nobody can receive";
  if (!done) {
    ASSERT_EQ(SCOMM_Cancel(&send), 0);
  }
}

// A message left unreceived when scomm finalizes never reaches a communicator of the next
// SCOMM_Init: MPICH keeps a freed communicator's unexpected messages and gives them to the next
// one of its context id, which the next SCOMM_Init's base communicators may get. Before, under
// MPICH, the new world's receive took the old message.
TEST_F(P2pTest, AMessageLeftAtFinalizeNeverReachesTheNextInit) {
  if (world_size_ == 1) GTEST_SKIP() << "MPICH 4.0 aborts on a freed send to oneself received";
  const int stale = -1 - world_rank_, fresh = world_rank_;
  SCOMM_Request send = SCOMM_REQUEST_NULL;
  ASSERT_EQ(SCOMM_Isend(&stale, 1, MPI_INT, right(), 5, SCOMM_COMM_WORLD, &send), 0);
  ASSERT_EQ(SCOMM_Probe(left(), 5, SCOMM_COMM_WORLD, SCOMM_STATUS_IGNORE), 0);
  ASSERT_EQ(SCOMM_Wait(&send, SCOMM_STATUS_IGNORE), 0);  // eager to another process
  ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Init(), SCOMM_SUCCESS);
  int got = 0;
  SCOMM_Request receive = SCOMM_REQUEST_NULL;
  ASSERT_EQ(SCOMM_Irecv(&got, 1, MPI_INT, left(), 5, SCOMM_COMM_WORLD, &receive), 0);
  ASSERT_EQ(SCOMM_Send(&fresh, 1, MPI_INT, right(), 5, SCOMM_COMM_WORLD), 0);
  ASSERT_EQ(SCOMM_Wait(&receive, SCOMM_STATUS_IGNORE), 0);
  EXPECT_EQ(got, left()) << "the message left at the last finalize arrived instead";
}

// Contexts allocated collectively, the lowest free one first, so that a freed communicator's
// context is the next communicator's.
class ReusedContextTest : public P2pTest {
 protected:
  void SetUp() override {
    set_environment_together("SCOMM_DERIVE_BITS", "0");
    set_environment_together("SCOMM_CONTEXT_ALGORITHM", "bitmask");
    ScommTest::SetUp();
  }
  void TearDown() override {
    ScommTest::TearDown();
    set_environment_together("SCOMM_DERIVE_BITS", nullptr);
    set_environment_together("SCOMM_CONTEXT_ALGORITHM", nullptr);
  }
};

// A receive whose request is freed while it may still match (MPI allows it) holds its
// communicator's context until it completes, as a pending one does: the communicators created
// after that one is freed get their own messages, none of which lands in the freed receive.
TEST_F(ReusedContextTest, AFreedPendingReceiveKeepsTheContextOfAFreedCommunicator) {
  static int released_into = -1;  // outlives the freed request
  SCOMM_Comm first = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, world_rank_, world_rank_, 1, &first), 0);
  SCOMM_Request pending = SCOMM_REQUEST_NULL;
  ASSERT_EQ(SCOMM_Irecv(&released_into, 1, MPI_INT, 0, 5, first, &pending), 0);
  ASSERT_EQ(SCOMM_Request_free(&pending), 0);
  ASSERT_EQ(SCOMM_Comm_free(&first), 0);
  for (int i = 0; i < 4; ++i) {
    SCOMM_Comm next = SCOMM_COMM_NULL;
    ASSERT_EQ(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, world_rank_, world_rank_, 1, &next), 0);
    const int value = 100 + i;
    int got = -1, done = 0;
    SCOMM_Request receive = SCOMM_REQUEST_NULL, send = SCOMM_REQUEST_NULL;
    ASSERT_EQ(SCOMM_Irecv(&got, 1, MPI_INT, 0, 5, next, &receive), 0);
    ASSERT_EQ(SCOMM_Isend(&value, 1, MPI_INT, 0, 5, next, &send), 0);
    const double deadline = MPI_Wtime() + 10.0;  // a failure, not a hang, if it went astray
    while (!done && MPI_Wtime() < deadline) ASSERT_EQ(SCOMM_Test(&receive, &done, nullptr), 0);
    EXPECT_EQ(done, 1) << "the message went to the freed receive";
    if (!done) {
      ASSERT_EQ(SCOMM_Cancel(&receive), 0);
      ASSERT_EQ(SCOMM_Wait(&receive, SCOMM_STATUS_IGNORE), 0);
    }
    ASSERT_EQ(SCOMM_Wait(&send, SCOMM_STATUS_IGNORE), 0);
    EXPECT_EQ(got, done ? value : -1);
    ASSERT_EQ(SCOMM_Comm_free(&next), 0);
  }
  EXPECT_EQ(released_into, -1);
}

// A message sent on a communicator that its receiver frees without receiving it (erroneous: MPI
// wants every message received) never reaches a later communicator of the same context (dups, or
// ranges without derivation slots: collective allocations, lowest free first): scomm receives it
// aside and drops it before the freed block goes back to the pool, as the next allocation
// starts. The probe makes sure it has arrived. Received by the base MPI's matching (source and
// tag given) and by scomm's engine (any source, any tag). Before, the next communicator took the
// old message.
TEST_F(ReusedContextTest, AMessageLeftOnAFreedCommunicatorNeverReachesALaterOne) {
  constexpr int kLaterCommunicators = 3;
  const auto make = [&](bool range, SCOMM_Comm* comm) {
    return range ? SCOMM_Comm_create_range(SCOMM_COMM_WORLD, 0, world_size_ - 1, 1, comm)
                 : SCOMM_Comm_dup(SCOMM_COMM_WORLD, comm);
  };
  int tag = 5;  // one per round, so that a round never matches an earlier round's messages
  for (const bool range : {false, true})
    for (const bool any : {true, false}) {
      ++tag;
      SCOPED_TRACE(std::string(range ? "range, " : "dup, ") +
                   (any ? "any source and tag" : "source and tag given"));
      SCOMM_Comm left_behind = SCOMM_COMM_NULL;
      ASSERT_EQ(make(range, &left_behind), 0);
      const int stale = -1 - world_rank_, fresh = world_rank_;
      SCOMM_Request stale_send = SCOMM_REQUEST_NULL;  // MPICH's to oneself waits for a receive
      ASSERT_EQ(SCOMM_Isend(&stale, 1, MPI_INT, right(), tag, left_behind, &stale_send), 0);
      ASSERT_EQ(SCOMM_Probe(left(), tag, left_behind, SCOMM_STATUS_IGNORE), 0);
      ASSERT_EQ(SCOMM_Comm_free(&left_behind), 0);
      for (int later = 0; later < kLaterCommunicators; ++later) {
        SCOMM_Comm next = SCOMM_COMM_NULL;
        ASSERT_EQ(make(range, &next), 0);
        SCOMM_Request receive = SCOMM_REQUEST_NULL;
        int got = 0;
        ASSERT_EQ(SCOMM_Irecv(&got, 1, MPI_INT, any ? SCOMM_ANY_SOURCE : left(),
                              any ? SCOMM_ANY_TAG : tag, next, &receive),
                  0);
        ASSERT_EQ(SCOMM_Send(&fresh, 1, MPI_INT, right(), tag, next), 0);
        ASSERT_EQ(SCOMM_Wait(&receive, SCOMM_STATUS_IGNORE), 0);
        ASSERT_EQ(got, left()) << "communicator " << later
                               << " took the message left on the freed one";
        ASSERT_EQ(SCOMM_Comm_free(&next), 0);
      }
      ASSERT_EQ(SCOMM_Wait(&stale_send, SCOMM_STATUS_IGNORE), 0);  // dropped is received aside
    }
}

// A message names its communicator, sender and tag in its payload; receivers check all three.
struct Stamp {
  int comm;
  int source;  // world rank
  int tag;
};

// Overlapping communicators live together: world, a dup, halves, the slides' cascading and
// alternating groups of four (local ranges), Janus neighbours (two ranges sharing one rank),
// and a split. Every member sends to every other member of each of them, then receives them all
// with ANY_SOURCE (half with ANY_TAG) in a random order of communicators.
TEST_F(P2pTest, StormOverManyOverlappingCommunicators) {
  // Each communicator with a label that all its members agree on.
  std::vector<SCOMM_Comm> comms{SCOMM_COMM_WORLD};
  std::vector<int> labels{0};
  auto add = [&](SCOMM_Comm c, int label) {
    if (c == SCOMM_COMM_NULL) return;
    comms.push_back(c);
    labels.push_back(label);
  };
  SCOMM_Comm c = SCOMM_COMM_NULL, dup = SCOMM_COMM_NULL;
  SCOMM_Comm_dup(SCOMM_COMM_WORLD, &dup);
  add(dup, 1);
  const int p = world_size_, half = (p + 1) / 2;
  for (int first = 0; first < p; ++first) {  // cascading groups of four, on the dup
    SCOMM_Comm_create_range(dup, first, std::min(first + 3, p - 1), 1, &c);
    add(c, 100 + first);
  }
  for (int first = 0; first < p; first += 4) {  // alternating groups of four
    SCOMM_Comm_create_range(SCOMM_COMM_WORLD, first, std::min(first + 3, p - 1), 1, &c);
    add(c, 200 + first);
  }
  // Janus: two ranges sharing rank half - 1, on a parent of their own: on the world, with up to
  // 4 alternating groups live, they would be more live overlapping children of one parent than
  // local creation can keep apart (DESIGN.md, "When two communicators are guaranteed distinct").
  SCOMM_Comm janus_parent = SCOMM_COMM_NULL;
  SCOMM_Comm_dup(SCOMM_COMM_WORLD, &janus_parent);
  add(janus_parent, 2);
  SCOMM_Comm_create_range(janus_parent, 0, half - 1, 1, &c);
  add(c, 300);
  SCOMM_Comm_create_range(janus_parent, half - 1, p - 1, 1, &c);
  add(c, 301);
  SCOMM_Comm_split(SCOMM_COMM_WORLD, world_rank_ % 3, -world_rank_, &c);
  add(c, 400 + world_rank_ % 3);
  std::vector<std::vector<int>> members;
  for (SCOMM_Comm comm : comms) members.push_back(members_of(comm));
  const int tag_of_comm = 11;
  std::vector<Stamp> out;
  std::vector<SCOMM_Request> sends;
  out.reserve(4096);
  for (std::size_t i = 0; i < comms.size(); ++i) {
    int rank = 0, size = 0;
    SCOMM_Comm_rank(comms[i], &rank);
    SCOMM_Comm_size(comms[i], &size);
    for (int to = 0; to < size; ++to) {
      if (to == rank) continue;
      // The key names the communicator by its members (same on every process).
      out.push_back({labels[i], world_rank_, tag_of_comm + to});
      sends.push_back(SCOMM_REQUEST_NULL);
      SCOMM_Isend(&out.back(), 3, MPI_INT, to, tag_of_comm + to, comms[i], &sends.back());
    }
  }
  std::mt19937 random(static_cast<unsigned>(world_rank_));
  std::vector<std::size_t> order(comms.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), random);
  for (std::size_t i : order) {
    int rank = 0, size = 0;
    SCOMM_Comm_rank(comms[i], &rank);
    SCOMM_Comm_size(comms[i], &size);
    for (int k = 0; k + 1 < size; ++k) {
      Stamp in{};
      SCOMM_Status status;
      const int tag = k % 2 == 0 ? MPI_ANY_TAG : tag_of_comm + rank;
      ASSERT_EQ(SCOMM_Recv(&in, 3, MPI_INT, MPI_ANY_SOURCE, tag, comms[i], &status), 0);
      EXPECT_EQ(in.comm, labels[i]) << "communicator " << i;
      EXPECT_EQ(in.source, members[i][static_cast<std::size_t>(status.SCOMM_SOURCE)]);
      EXPECT_EQ(in.tag, tag_of_comm + rank);
      EXPECT_EQ(status.SCOMM_TAG, tag_of_comm + rank);
    }
  }
  ASSERT_EQ(SCOMM_Waitall(static_cast<int>(sends.size()), sends.data(), SCOMM_STATUSES_IGNORE), 0);
  for (std::size_t i = comms.size(); i-- > 1;) SCOMM_Comm_free(&comms[i]);
}

}  // namespace
