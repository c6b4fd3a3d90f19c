// The C++ interface (include/scomm.hpp) against MPI's own results on the same ranks: creation,
// point-to-point, collectives, ownership and exceptions.
#include <gtest/gtest.h>
#include <mpi.h>
#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <utility>
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

// Element e of rank r's contribution to the collectives below.
int contribution(int rank, int e) {
  return 100 * rank + e + 1;
}

std::vector<int> contributions(int rank, std::size_t n) {
  std::vector<int> out(n);
  for (std::size_t e = 0; e < n; ++e) out[e] = contribution(rank, static_cast<int>(e));
  return out;
}

enum class Form { kBlocking, kNonblocking, kPersistent };

// Runs `call` in each form (a nonblocking request waited for, a persistent one started and
// completed twice), each on fresh buffers (`reset`) and followed by `check`.
template <typename Reset, typename Call, typename Check>
void every_form(Reset&& reset, Call&& call, Check&& check) {
  for (const Form form : {Form::kBlocking, Form::kNonblocking, Form::kPersistent}) {
    SCOPED_TRACE(form == Form::kBlocking      ? "blocking"
                 : form == Form::kNonblocking ? "nonblocking"
                                              : "persistent");
    reset();
    call(form);
    check();
  }
}

void twice(scomm::PersistentRequest request) {
  for (int start = 0; start < 2; ++start) {
    request.start();
    request.wait();
  }
}

// Rank r's count in the v-forms (0 at ranks 0, 3, ...), and displacements placing the blocks in
// reverse rank order with a gap of one element after each.
struct VectorLayout {
  std::vector<int> counts, displs;
  std::size_t total = 0;
};
VectorLayout vector_layout(int p) {
  VectorLayout layout;
  for (int r = 0; r < p; ++r) layout.counts.push_back(r % 3);
  layout.displs.resize(static_cast<std::size_t>(p));
  int at = 0;
  for (int r = p - 1; r >= 0; --r) {
    layout.displs[static_cast<std::size_t>(r)] = at;
    at += layout.counts[static_cast<std::size_t>(r)] + 1;
  }
  layout.total = static_cast<std::size_t>(at);
  return layout;
}

class CxxCollectivesTest : public CxxApiTest {
 protected:
  int p_ = world_.size(), rank_ = world_.rank();
  std::size_t members_ = static_cast<std::size_t>(p_);
};

// Reduce (and in place), gather(v) and scatter(v) at the first and the last rank, blocking and
// nonblocking, against MPI's own calls on the same data.
TEST_F(CxxCollectivesTest, RootedCollectivesEqualMpis) {
  constexpr int count = 3;
  constexpr auto n = static_cast<std::size_t>(count);
  const std::vector<int> mine = contributions(rank_, n);
  const VectorLayout layout = vector_layout(p_);
  const auto my_count = static_cast<std::size_t>(layout.counts[static_cast<std::size_t>(rank_)]);
  const std::vector<int> my_part = contributions(rank_, my_count);
  for (const int root : {0, p_ - 1}) {
    SCOPED_TRACE("root " + std::to_string(root));
    const bool at_root = rank_ == root;
    std::vector<int> expected(n), got;
    MPI_Reduce(mine.data(), expected.data(), count, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
    every_form([&] { got.assign(n, -1); },
               [&](Form form) {
                 if (form == Form::kNonblocking)
                   world_.ireduce(mine, got, MPI_SUM, root).wait();
                 else if (form == Form::kPersistent)
                   twice(world_.reduce_init(mine, got, MPI_SUM, root));
                 else
                   world_.reduce(mine, got, MPI_SUM, root);
               },
               [&] {
                 if (at_root) {
                   EXPECT_EQ(got, expected);
                 }
               });
    got = mine;
    world_.reduce_in_place(got, MPI_SUM, root);
    if (at_root) {
      EXPECT_EQ(got, expected);
    }

    std::vector<int> all_expected(n * members_), all;
    MPI_Gather(mine.data(), count, MPI_INT, all_expected.data(), count, MPI_INT, root,
               MPI_COMM_WORLD);
    every_form([&] { all.assign(n * members_, -1); },
               [&](Form form) {
                 if (form == Form::kNonblocking)
                   world_.igather(mine, all, root).wait();
                 else if (form == Form::kPersistent)
                   twice(world_.gather_init(mine, all, root));
                 else
                   world_.gather(mine, all, root);
               },
               [&] {
                 if (at_root) {
                   EXPECT_EQ(all, all_expected);
                 }
               });

    std::vector<int> v_expected(layout.total, -1), v_all;
    MPI_Gatherv(my_part.data(), static_cast<int>(my_count), MPI_INT, v_expected.data(),
                layout.counts.data(), layout.displs.data(), MPI_INT, root, MPI_COMM_WORLD);
    every_form([&] { v_all.assign(layout.total, -1); },
               [&](Form form) {
                 if (form == Form::kNonblocking)
                   world_.igatherv(my_part, v_all, layout.counts, layout.displs, root).wait();
                 else if (form == Form::kPersistent)
                   twice(world_.gatherv_init(my_part, v_all, layout.counts, layout.displs, root));
                 else
                   world_.gatherv(my_part, v_all, layout.counts, layout.displs, root);
               },
               [&] {
                 if (at_root) {
                   EXPECT_EQ(v_all, v_expected);
                 }
               });

    // The root's buffers are what it gathered: block r (at displs[r]) comes back to rank r.
    std::vector<int> block, block_expected(n);
    MPI_Scatter(all_expected.data(), count, MPI_INT, block_expected.data(), count, MPI_INT, root,
                MPI_COMM_WORLD);
    EXPECT_EQ(block_expected, mine);
    every_form([&] { block.assign(n, -1); },
               [&](Form form) {
                 if (form == Form::kNonblocking)
                   world_.iscatter(all_expected, block, root).wait();
                 else if (form == Form::kPersistent)
                   twice(world_.scatter_init(all_expected, block, root));
                 else
                   world_.scatter(all_expected, block, root);
               },
               [&] { EXPECT_EQ(block, mine); });
    std::vector<int> part;
    every_form(
        [&] { part.assign(my_count, -1); },
        [&](Form form) {
          if (form == Form::kNonblocking)
            world_.iscatterv(v_expected, layout.counts, layout.displs, part, root).wait();
          else if (form == Form::kPersistent)
            twice(world_.scatterv_init(v_expected, layout.counts, layout.displs, part, root));
          else
            world_.scatterv(v_expected, layout.counts, layout.displs, part, root);
        },
        [&] { EXPECT_EQ(part, my_part); });
  }
}

// The collectives without a root, blocking and nonblocking, against MPI's own calls.
TEST_F(CxxCollectivesTest, CollectivesOfAllEqualMpis) {
  constexpr int count = 4;
  constexpr auto n = static_cast<std::size_t>(count);
  const std::vector<int> mine = contributions(rank_, n);
  std::vector<int> expected(n), got;
  const auto reset = [&] { got.assign(n, -1); };
  MPI_Allreduce(mine.data(), expected.data(), count, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  every_form(
      reset,
      [&](Form form) {
        if (form == Form::kNonblocking)
          world_.iallreduce(mine, got, MPI_MAX).wait();
        else if (form == Form::kPersistent)
          twice(world_.allreduce_init(mine, got, MPI_MAX));
        else
          world_.allreduce(mine, got, MPI_MAX);
      },
      [&] { EXPECT_EQ(got, expected); });
  MPI_Scan(mine.data(), expected.data(), count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  every_form(
      reset,
      [&](Form form) {
        if (form == Form::kNonblocking)
          world_.iscan(mine, got, MPI_SUM).wait();
        else if (form == Form::kPersistent)
          twice(world_.scan_init(mine, got, MPI_SUM));
        else
          world_.scan(mine, got, MPI_SUM);
      },
      [&] { EXPECT_EQ(got, expected); });
  MPI_Exscan(mine.data(), expected.data(), count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  every_form(
      reset,
      [&](Form form) {
        if (form == Form::kNonblocking)
          world_.iexscan(mine, got, MPI_SUM).wait();
        else if (form == Form::kPersistent)
          twice(world_.exscan_init(mine, got, MPI_SUM));
        else
          world_.exscan(mine, got, MPI_SUM);
      },
      [&] {
        if (rank_ > 0) {
          EXPECT_EQ(got, expected);
        }
      });

  std::vector<int> all_expected(n * members_), all;
  MPI_Allgather(mine.data(), count, MPI_INT, all_expected.data(), count, MPI_INT, MPI_COMM_WORLD);
  every_form([&] { all.assign(n * members_, -1); },
             [&](Form form) {
               if (form == Form::kNonblocking)
                 world_.iallgather(mine, all).wait();
               else if (form == Form::kPersistent)
                 twice(world_.allgather_init(mine, all));
               else
                 world_.allgather(mine, all);
             },
             [&] { EXPECT_EQ(all, all_expected); });

  const VectorLayout layout = vector_layout(p_);
  const std::vector<int> my_part = contributions(
      rank_, static_cast<std::size_t>(layout.counts[static_cast<std::size_t>(rank_)]));
  std::vector<int> v_expected(layout.total, -1), v_all;
  MPI_Allgatherv(my_part.data(), static_cast<int>(my_part.size()), MPI_INT, v_expected.data(),
                 layout.counts.data(), layout.displs.data(), MPI_INT, MPI_COMM_WORLD);
  every_form([&] { v_all.assign(layout.total, -1); },
             [&](Form form) {
               if (form == Form::kNonblocking)
                 world_.iallgatherv(my_part, v_all, layout.counts, layout.displs).wait();
               else if (form == Form::kPersistent)
                 twice(world_.allgatherv_init(my_part, v_all, layout.counts, layout.displs));
               else
                 world_.allgatherv(my_part, v_all, layout.counts, layout.displs);
             },
             [&] { EXPECT_EQ(v_all, v_expected); });

  // Block j of rank i's all-to-all output: contribution(i, j); its v-form sends block j as
  // layout.counts[j] elements at layout.displs[j] and receives (i % 3) from every rank i.
  std::vector<int> exchanged_expected(n * members_), exchanged;
  MPI_Alltoall(all_expected.data(), count, MPI_INT, exchanged_expected.data(), count, MPI_INT,
               MPI_COMM_WORLD);
  every_form([&] { exchanged.assign(n * members_, -1); },
             [&](Form form) {
               if (form == Form::kNonblocking)
                 world_.ialltoall(all_expected, exchanged).wait();
               else if (form == Form::kPersistent)
                 twice(world_.alltoall_init(all_expected, exchanged));
               else
                 world_.alltoall(all_expected, exchanged);
             },
             [&] { EXPECT_EQ(exchanged, exchanged_expected); });
  const std::vector<int> recvcounts(members_, layout.counts[static_cast<std::size_t>(rank_)]);
  std::vector<int> rdispls(members_);
  for (std::size_t i = 0; i < members_; ++i) rdispls[i] = static_cast<int>(i) * (recvcounts[i] + 1);
  const std::size_t v_in = members_ * static_cast<std::size_t>(recvcounts[0] + 1);
  std::vector<int> v_exchanged_expected(v_in, -1), v_exchanged;
  MPI_Alltoallv(v_expected.data(), layout.counts.data(), layout.displs.data(), MPI_INT,
                v_exchanged_expected.data(), recvcounts.data(), rdispls.data(), MPI_INT,
                MPI_COMM_WORLD);
  every_form([&] { v_exchanged.assign(v_in, -1); },
             [&](Form form) {
               if (form == Form::kNonblocking)
                 world_
                     .ialltoallv(v_expected, layout.counts, layout.displs, v_exchanged, recvcounts,
                                 rdispls)
                     .wait();
               else if (form == Form::kPersistent)
                 twice(world_.alltoallv_init(v_expected, layout.counts, layout.displs, v_exchanged,
                                             recvcounts, rdispls));
               else
                 world_.alltoallv(v_expected, layout.counts, layout.displs, v_exchanged, recvcounts,
                                  rdispls);
             },
             [&] { EXPECT_EQ(v_exchanged, v_exchanged_expected); });

  std::vector<int> block_expected(n), block;
  MPI_Reduce_scatter_block(all_expected.data(), block_expected.data(), count, MPI_INT, MPI_SUM,
                           MPI_COMM_WORLD);
  every_form([&] { block.assign(n, -1); },
             [&](Form form) {
               if (form == Form::kNonblocking)
                 world_.ireduce_scatter_block(all_expected, block, MPI_SUM).wait();
               else if (form == Form::kPersistent)
                 twice(world_.reduce_scatter_block_init(all_expected, block, MPI_SUM));
               else
                 world_.reduce_scatter_block(all_expected, block, MPI_SUM);
             },
             [&] { EXPECT_EQ(block, block_expected); });
  const std::size_t piece =
      static_cast<std::size_t>(layout.counts[static_cast<std::size_t>(rank_)]);
  // One element more: SMPI 3.32 rejects a null receive buffer where any member's count is positive.
  std::vector<int> piece_expected(piece + 1), piece_got;
  const std::vector<int> reduced_in(layout.total - members_, rank_ + 1);  // the counts' sum
  MPI_Reduce_scatter(reduced_in.data(), piece_expected.data(), layout.counts.data(), MPI_INT,
                     MPI_SUM, MPI_COMM_WORLD);
  piece_expected.resize(piece);
  every_form([&] { piece_got.assign(piece, -1); },
             [&](Form form) {
               if (form == Form::kNonblocking)
                 world_.ireduce_scatter(reduced_in, piece_got, layout.counts, MPI_SUM).wait();
               else if (form == Form::kPersistent)
                 twice(world_.reduce_scatter_init(reduced_in, piece_got, layout.counts, MPI_SUM));
               else
                 world_.reduce_scatter(reduced_in, piece_got, layout.counts, MPI_SUM);
             },
             [&] { EXPECT_EQ(piece_got, piece_expected); });
  world_.ibarrier().wait();
  world_.barrier();
}

// The w-form: to rank j, j % 3 elements at byte displacement 8 ints * j, ints where j is even and
// every other int where it is odd; from each rank, its count for this one as plain ints. Checked
// against MPI's own call in each form, then its size checks (alike at every member).
TEST_F(CxxCollectivesTest, AlltoallwEqualsMpis) {
  MPI_Datatype every_other = MPI_DATATYPE_NULL;
  MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &every_other);
  MPI_Type_commit(&every_other);
  constexpr int kSlot = 8;  // ints a block may span
  constexpr int kSlotBytes = kSlot * static_cast<int>(sizeof(int));
  std::vector<int> sendcounts(members_), displs(members_), recvcounts(members_, rank_ % 3);
  std::vector<MPI_Datatype> sendtypes(members_), recvtypes(members_, MPI_INT);
  for (std::size_t j = 0; j < members_; ++j) {
    sendcounts[j] = static_cast<int>(j % 3);
    sendtypes[j] = j % 2 == 1 ? every_other : MPI_INT;
    displs[j] = static_cast<int>(j) * kSlotBytes;
  }
  const std::vector<int> out = contributions(rank_, members_ * kSlot);
  std::vector<int> expected(members_ * kSlot, -1), got;
  MPI_Alltoallw(out.data(), sendcounts.data(), displs.data(), sendtypes.data(), expected.data(),
                recvcounts.data(), displs.data(), recvtypes.data(), MPI_COMM_WORLD);
  every_form(
      [&] { got.assign(members_ * kSlot, -1); },
      [&](Form form) {
        if (form == Form::kNonblocking)
          world_.ialltoallw(out, sendcounts, displs, sendtypes, got, recvcounts, displs, recvtypes)
              .wait();
        else if (form == Form::kPersistent)
          twice(world_.alltoallw_init(out, sendcounts, displs, sendtypes, got, recvcounts, displs,
                                      recvtypes));
        else
          world_.alltoallw(out, sendcounts, displs, sendtypes, got, recvcounts, displs, recvtypes);
      },
      [&] { EXPECT_EQ(got, expected); });

  // One int to every rank at the start of its slot: the last slot's int lies past a buffer one
  // slot short; a displacement before the buffer; arrays not one entry per member.
  const std::vector<int> ones(members_, 1), before(members_, -4);
  const std::vector<MPI_Datatype> ints(members_, MPI_INT);
  std::vector<int> one_short((members_ - 1) * kSlot), room(members_ * kSlot);
  EXPECT_THROW(world_.alltoallw(out, ones, displs, ints, one_short, ones, displs, ints),
               std::length_error);
  EXPECT_THROW(world_.ialltoallw(out, ones, before, ints, room, ones, displs, ints),
               std::length_error);
  EXPECT_THROW(world_.alltoallw_init(out, ones, displs, std::span(ints).first(members_ - 1), room,
                                     ones, displs, ints),
               std::length_error);
  MPI_Type_free(&every_other);
  EXPECT_EQ(world_.allreduce(1, MPI_SUM), p_);
}

// A buffer too small for what the call moves, or arrays not one entry per member, throw
// std::length_error before anything is sent (at every member alike here), and the communicator
// goes on working.
TEST_F(CxxCollectivesTest, BuffersTooSmallThrowBeforeAnythingIsSent) {
  const std::vector<int> two{1, 2};
  std::vector<int> one(1), none, room_for_two(2);
  std::vector<int> short_all(2 * members_ - 1);
  const std::vector<int> counts(members_, 1), displs(members_, 0), too_few(members_ - 1, 1);
  EXPECT_THROW(world_.allreduce(two, one, MPI_SUM), std::length_error);
  EXPECT_THROW(world_.iscan(two, one, MPI_SUM), std::length_error);
  EXPECT_THROW(world_.allgather(two, short_all), std::length_error);
  EXPECT_THROW(world_.reduce(two, one, MPI_SUM, rank_), std::length_error);  // each its own root
  EXPECT_THROW(world_.gather(two, short_all, rank_), std::length_error);
  EXPECT_THROW(world_.scatter(short_all, room_for_two, rank_), std::length_error);
  EXPECT_THROW(world_.allgatherv(one, none, counts, displs), std::length_error);
  EXPECT_THROW(world_.allgatherv(one, one, too_few, displs), std::length_error);
  EXPECT_THROW(world_.alltoall(short_all, none), std::length_error);
  EXPECT_THROW(world_.reduce_scatter_block(short_all, room_for_two, MPI_SUM), std::length_error);
  EXPECT_THROW(world_.reduce_scatter(one, one, too_few, MPI_SUM), std::length_error);
  EXPECT_THROW(world_.gatherv(one, short_all, counts, std::vector<int>(members_, -1), rank_),
               std::length_error);
  EXPECT_EQ(world_.allreduce(1, MPI_SUM), p_);
}

// An alltoall whose blocks pass an int: std::length_error, as every call's count past 2^31 - 1
// (not a block cut down to its low 32 bits). The ranges are address space only, never touched.
TEST_F(CxxCollectivesTest, BlocksPastAnIntThrow) {
  const std::size_t n = static_cast<std::size_t>(members_) * (std::size_t{1} << 31);
  void* space = mmap(nullptr, n, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ASSERT_NE(space, MAP_FAILED);
  const std::span<char> huge(static_cast<char*>(space), n);
  EXPECT_THROW(world_.alltoall(huge, huge), std::length_error);
  EXPECT_THROW(world_.ialltoall(huge, huge), std::length_error);
  munmap(space, n);
  EXPECT_EQ(world_.allreduce(1, MPI_SUM), p_);
}

// What does not compile: reductions whose input and output hold different element types (MPI
// reduces both with one datatype), and nonblocking or persistent calls on a temporary container
// (destroyed before the call completes; lvalues and spans are kept).
template <typename In, typename Out>
constexpr bool kAllreduces = requires(const scomm::Communicator& c, In in, Out out) {
  c.allreduce(in, out, MPI_SUM);
};
template <typename In, typename Out>
constexpr bool kStartsAllreduce = requires(const scomm::Communicator& c, In in, Out out) {
  c.iallreduce(std::forward<In>(in), std::forward<Out>(out), MPI_SUM);
};
template <typename Buffer>
constexpr bool kStartsReceive = requires(const scomm::Communicator& c, Buffer buffer) {
  c.irecv(std::forward<Buffer>(buffer), 0, 0);
};
template <typename Buffer>
constexpr bool kPreparesSend = requires(const scomm::Communicator& c, Buffer buffer) {
  c.send_init(std::forward<Buffer>(buffer), 0, 0);
};
using Ints = std::vector<int>;
static_assert(kAllreduces<const Ints&, Ints&>);
static_assert(!kAllreduces<const Ints&, std::vector<char>&>);
static_assert(!kAllreduces<const Ints&, std::vector<float>&>);
static_assert(kStartsAllreduce<const Ints&, Ints&>);
static_assert(kStartsAllreduce<std::span<const int>, std::span<int>>);
static_assert(!kStartsAllreduce<Ints, Ints&>);
static_assert(!kStartsAllreduce<const Ints&, Ints>);
static_assert(!kStartsAllreduce<const Ints&, std::vector<char>&>);
static_assert(kStartsReceive<Ints&>);
static_assert(kStartsReceive<std::span<int>>);
static_assert(!kStartsReceive<Ints>);
static_assert(kPreparesSend<const Ints&>);
static_assert(!kPreparesSend<Ints>);

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

TEST_F(CxxApiTest, LibraryVersionIsTheCApis) {
  char text[SCOMM_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  ASSERT_EQ(SCOMM_Get_library_version(text, &length), SCOMM_SUCCESS);
  EXPECT_EQ(scomm::library_version(), std::string(text, static_cast<std::size_t>(length)));
  EXPECT_TRUE(scomm::library_version().starts_with("scomm "));
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
  // An empty communicator has nothing to abort: an exception, and the job goes on
  // (tests/mpi/abort_job.c ends jobs).
  EXPECT_THROW(b.abort(3), scomm::Exception);
}

// An empty Communicator (moved from) throws SCOMM_ERR_COMM from every call, collectives too,
// even while SCOMM_COMM_WORLD's handler is fatal (the C API reports a null handle there, and the
// job once ended on `moved.size()`).
TEST_F(CxxApiTest, AnEmptyCommunicatorThrowsWhateverTheWorldsHandler) {
  SCOMM_Comm_set_errhandler(SCOMM_COMM_WORLD, SCOMM_ERRORS_ARE_FATAL);
  scomm::Communicator moved = world_.dup();
  const scomm::Communicator kept = std::move(moved);
  const auto expect_comm_error = [](auto&& call, const char* what) {
    try {
      call();
      ADD_FAILURE() << what << ": no exception";
    } catch (const scomm::Exception& e) {
      EXPECT_EQ(e.error_class(), SCOMM_ERR_COMM) << what;
    }
  };
  // NOLINTBEGIN(bugprone-use-after-move): moved-from is empty by contract
  expect_comm_error([&] { return moved.size(); }, "size");
  expect_comm_error([&] { return moved.dup(); }, "dup");
  expect_comm_error([&] { moved.barrier(); }, "barrier");
  expect_comm_error([&] { return moved.ibarrier(); }, "ibarrier");
  std::vector<int> one{1};
  expect_comm_error([&] { moved.send(one, 0); }, "send");
  // NOLINTEND(bugprone-use-after-move)
  scomm::PersistentRequest empty;
  try {
    empty.start();
    ADD_FAILURE() << "start of an empty request: no exception";
  } catch (const scomm::Exception& e) {
    EXPECT_EQ(e.error_class(), SCOMM_ERR_REQUEST);
  }
  EXPECT_EQ(kept.size(), world_.size());
  SCOMM_Comm_set_errhandler(SCOMM_COMM_WORLD, SCOMM_ERRORS_RETURN);
}

// A persistent request moved into a plain Request (for wait_all and the like) is freed when it
// goes, as a PersistentRequest is: its handle is dead after (it once stayed live, some 240 bytes
// a request held until SCOMM_Finalize).
TEST_F(CxxApiTest, APersistentRequestInAPlainRequestIsFreed) {
  const std::vector<int> out{world_.rank()};
  std::vector<int> in{-1};
  SCOMM_Request handle = SCOMM_REQUEST_NULL;
  {
    std::vector<scomm::Request> requests;
    requests.emplace_back(world_.send_init(out, world_.rank(), 5));
    requests.emplace_back(world_.recv_init(in, world_.rank(), 5));
    handle = *requests.front().handle();
    for (scomm::Request& r : requests) ASSERT_EQ(SCOMM_Start(r.handle()), SCOMM_SUCCESS);
    scomm::wait_all(requests);
    EXPECT_EQ(*requests.front().handle(), handle);  // inactive, not freed: persistent
    EXPECT_EQ(in, out);
  }
  SCOMM_Comm_set_errhandler(SCOMM_COMM_WORLD, SCOMM_ERRORS_RETURN);
  EXPECT_EQ(error_class_of(SCOMM_Request_free(&handle)), SCOMM_ERR_REQUEST);  // freed already
}

}  // namespace
