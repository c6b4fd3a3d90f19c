// Context limits on the real MPI: exhaustion is a clear error at every member (not a hang), freed
// contexts are reused, and a process holds 10^6 live communicators.
#include <array>
#include <cstdlib>
#include <functional>
#include <string>

#include "scomm_fixture.hpp"

namespace {

// Runs each test under its own SCOMM_* environment, set before SCOMM_Init.
class ScaleTest : public ::testing::TestWithParam<const char*> {
 protected:
  void start(const char* base_comms, const char* derive_bits) {
    setenv("SCOMM_BASE_COMMS", base_comms, 1);
    setenv("SCOMM_DERIVE_BITS", derive_bits, 1);
    setenv("SCOMM_CONTEXT_ALGORITHM", GetParam(), 1);
    ASSERT_EQ(SCOMM_Init(), SCOMM_SUCCESS);
    started_ = true;
    SCOMM_Comm_set_errhandler(SCOMM_COMM_WORLD, SCOMM_ERRORS_RETURN);
  }
  void TearDown() override {
    if (started_) {
      EXPECT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
    }
    unsetenv("SCOMM_BASE_COMMS");
    unsetenv("SCOMM_DERIVE_BITS");
    unsetenv("SCOMM_CONTEXT_ALGORITHM");
  }

  bool started_ = false;
};

int live_contexts() {
  int communicators = 0, contexts = 0;
  SCOMM_Comm_live(&communicators, &contexts);
  return contexts;
}

// How many blocks the world reserved for its local children at SCOMM_Init: its local slots
// beyond its 6 derivation slots (SCOMM_DERIVE_BITS = 6 here).
std::size_t world_run_length() {
  int slots = 0;
  SCOMM_Comm_local_slots(SCOMM_COMM_WORLD, &slots);
  return static_cast<std::size_t>(slots - 6);
}

// One base communicator and 64-id blocks: Open MPI's 2^16 prefixes give 1,024 blocks, MPICH's
// 2^13 give 128; the world holds one, and its first run (world_run_length).
std::size_t blocks_of_one_base() {
  int* tag_ub = nullptr;
  int found = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &found);
  return *tag_ub > (1 << 30) ? 1024 : 128;
}

// Duplicates the world until the contexts run out; the error code of the dup that failed.
int dup_until_exhausted(std::vector<SCOMM_Comm>& dups) {
  int code = SCOMM_SUCCESS;
  while (code == SCOMM_SUCCESS && dups.size() < 100000u) {
    SCOMM_Comm dup = SCOMM_COMM_NULL;
    code = SCOMM_Comm_dup(SCOMM_COMM_WORLD, &dup);
    if (code == SCOMM_SUCCESS) dups.push_back(dup);
  }
  return code;
}

TEST_P(ScaleTest, ExhaustionIsACollectiveErrorAndFreedContextsAreReused) {
  start("1", "6");
  std::vector<SCOMM_Comm> dups;
  const int code = dup_until_exhausted(dups);
  ASSERT_LT(dups.size(), 100000u) << "no exhaustion";
  EXPECT_EQ(error_class_of(code), SCOMM_ERR_CONTEXT);
  const std::size_t blocks = blocks_of_one_base();
  EXPECT_EQ(dups.size(), blocks - 1 - world_run_length());
  // Every member failed together: a collective over the world still lines up.
  int one = 1, sum = 0;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_EQ(sum, size);
  for (std::size_t i = 0; i < dups.size(); i += 2) SCOMM_Comm_free(&dups[i]);
  SCOMM_Comm again = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &again), SCOMM_SUCCESS);
  int got = -1, rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  SCOMM_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT, MPI_ANY_SOURCE,
                 MPI_ANY_TAG, again, SCOMM_STATUS_IGNORE);
  EXPECT_EQ(got, (rank + size - 1) % size);
  SCOMM_Comm_free(&again);
  for (std::size_t i = 1; i < dups.size(); i += 2) SCOMM_Comm_free(&dups[i]);
  EXPECT_EQ(live_contexts(), 1);
}

// An idup that fails for want of contexts deletes the attribute copies it made for its
// communicator once its request is gone: their delete callbacks may start requests of their own
// (the requests' table grows, its entries move).
int deletions_making_requests = 0;
int delete_making_a_request(SCOMM_Comm, int, void*, void*) {
  ++deletions_making_requests;
  SCOMM_Request barrier = SCOMM_REQUEST_NULL;
  for (int i = 0; i < 8 && SCOMM_Ibarrier(SCOMM_COMM_WORLD, &barrier) == SCOMM_SUCCESS; ++i)
    SCOMM_Wait(&barrier, SCOMM_STATUS_IGNORE);
  return SCOMM_SUCCESS;
}

TEST_P(ScaleTest, AFailedIdupsCopiesAreDeletedOutsideTheRequestsTable) {
  start("1", "6");
  std::vector<SCOMM_Comm> dups;
  ASSERT_EQ(error_class_of(dup_until_exhausted(dups)), SCOMM_ERR_CONTEXT);
  int keyval = SCOMM_KEYVAL_INVALID;
  ASSERT_EQ(SCOMM_Comm_create_keyval(SCOMM_COMM_DUP_FN, delete_making_a_request, &keyval, nullptr),
            SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_set_attr(SCOMM_COMM_WORLD, keyval, nullptr), SCOMM_SUCCESS);
  deletions_making_requests = 0;
  SCOMM_Comm copy = SCOMM_COMM_NULL;
  SCOMM_Request request = SCOMM_REQUEST_NULL;
  ASSERT_EQ(SCOMM_Comm_idup(SCOMM_COMM_WORLD, &copy, &request), SCOMM_SUCCESS);
  EXPECT_EQ(error_class_of(SCOMM_Wait(&request, SCOMM_STATUS_IGNORE)), SCOMM_ERR_CONTEXT);
  EXPECT_EQ(deletions_making_requests, 1);
  EXPECT_EQ(copy, SCOMM_COMM_NULL);
  ASSERT_EQ(SCOMM_Comm_delete_attr(SCOMM_COMM_WORLD, keyval), SCOMM_SUCCESS);
  EXPECT_EQ(deletions_making_requests, 2);
  SCOMM_Comm_free_keyval(&keyval);
  for (SCOMM_Comm& dup : dups) SCOMM_Comm_free(&dup);
}

// The world takes its first run of blocks in the allocation of its own context at SCOMM_Init:
// a 64th of the pool (16 blocks of Open MPI's 1,024, 2 of MPICH's 128) where the algorithm
// takes runs, none with vanilla's confirming rounds. Its local children use it up one block each
// before the world allocates again, and every one of them carries its own messages.
TEST_P(ScaleTest, TheWorldStartsWithARunOfBlocks) {
  start("1", "6");
  const std::size_t blocks = blocks_of_one_base();
  const bool takes_runs = std::string(GetParam()) != "vanilla";
  ASSERT_EQ(world_run_length(), takes_runs ? blocks / 64 : 0);
  int size = 0, rank = 0, slots = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  SCOMM_Comm_local_slots(SCOMM_COMM_WORLD, &slots);
  std::vector<SCOMM_Comm> children;
  for (int k = slots; k > 0; --k) {
    SCOMM_Comm child = SCOMM_COMM_NULL;
    ASSERT_EQ(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, 0, size - 1, 1, &child), SCOMM_SUCCESS);
    children.push_back(child);
    int left = -1;
    SCOMM_Comm_local_slots(SCOMM_COMM_WORLD, &left);
    ASSERT_EQ(left, k - 1) << "a creation within the first run allocated another";
  }
  for (std::size_t i = 0; i < children.size(); ++i) {
    const int sent = rank * 1000 + static_cast<int>(i);
    int got = -1;
    SCOMM_Sendrecv(&sent, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT, MPI_ANY_SOURCE,
                   MPI_ANY_TAG, children[i], SCOMM_STATUS_IGNORE);
    EXPECT_EQ(got, (rank + size - 1) % size * 1000 + static_cast<int>(i));
  }
  for (SCOMM_Comm& child : children) SCOMM_Comm_free(&child);
  EXPECT_EQ(live_contexts(), 1);
}

// A local creation beyond the parent's slots reserves fresh blocks collectively: with none free,
// it fails with SCOMM_ERR_CONTEXT at every member (not a hang), and succeeds once one is freed.
TEST_P(ScaleTest, LocalCreationBeyondTheSlotsReportsExhaustion) {
  start("1", "6");
  std::vector<SCOMM_Comm> dups;
  ASSERT_EQ(error_class_of(dup_until_exhausted(dups)), SCOMM_ERR_CONTEXT);
  SCOMM_Comm parent = dups.back();
  SCOMM_Comm_set_errhandler(parent, SCOMM_ERRORS_RETURN);
  int slots = 0, size = 0;
  SCOMM_Comm_local_slots(parent, &slots);
  SCOMM_Comm_size(parent, &size);
  std::vector<SCOMM_Comm> children;
  auto create = [&] {
    SCOMM_Comm child = SCOMM_COMM_NULL;
    const int code = SCOMM_Comm_create_range(parent, 0, size - 1, 1, &child);
    if (code == SCOMM_SUCCESS) children.push_back(child);
    return code;
  };
  for (int k = 0; k < slots; ++k) ASSERT_EQ(create(), SCOMM_SUCCESS);  // local: no block needed
  EXPECT_EQ(error_class_of(create()), SCOMM_ERR_CONTEXT);
  int one = 1, sum = 0;  // every member failed together: the world still lines up
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(sum, size);
  SCOMM_Comm_free(&dups.front());
  ASSERT_EQ(create(), SCOMM_SUCCESS);
  int rank = 0, got = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  SCOMM_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT, MPI_ANY_SOURCE,
                 MPI_ANY_TAG, children.back(), SCOMM_STATUS_IGNORE);
  EXPECT_EQ(got, (rank + size - 1) % size);
  for (SCOMM_Comm& c : children) SCOMM_Comm_free(&c);
  for (SCOMM_Comm& d : dups)
    if (d != SCOMM_COMM_NULL) SCOMM_Comm_free(&d);
  EXPECT_EQ(live_contexts(), 1);
}

// With one block left, a pending idup may hold it by reservation while a blocking creation runs:
// the blocking one advances the idup as it waits (MPI's progress rule) instead of waiting forever
// for a reservation that only the idup's progress would release. Exactly one of the two gets the
// block (the blocking one ranks first: the idup waits for it, then finds the ids exhausted; or
// the idup had settled on it before), each alike at every member. Both blocking creations: a dup
// (its allreduce on scomm's own messages), and a communicator from an MPI one (on MPI's allreduce,
// which advances nothing of scomm's).
TEST_P(ScaleTest, ABlockingCreationAdvancesAPendingOneForTheLastBlock) {
  start("1", "6");
  std::vector<SCOMM_Comm> dups;
  ASSERT_EQ(error_class_of(dup_until_exhausted(dups)), SCOMM_ERR_CONTEXT);
  MPI_Comm mpi_dup = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &mpi_dup);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int free_blocks = 0;
  for (const bool from_mpi : {false, true}) {
    SCOPED_TRACE(from_mpi ? "SCOMM_Comm_from_MPI" : "SCOMM_Comm_dup");
    if (free_blocks == 0) {  // one block free
      SCOMM_Comm_free(&dups.back());
      dups.pop_back();
      free_blocks = 1;
    }
    SCOMM_Comm pending = SCOMM_COMM_NULL, blocking = SCOMM_COMM_NULL;
    SCOMM_Request request = SCOMM_REQUEST_NULL;
    ASSERT_EQ(SCOMM_Comm_idup(SCOMM_COMM_WORLD, &pending, &request), SCOMM_SUCCESS);
    const int codes[2] = {from_mpi ? SCOMM_Comm_from_MPI(mpi_dup, &blocking)
                                   : SCOMM_Comm_dup(SCOMM_COMM_WORLD, &blocking),
                          SCOMM_Wait(&request, SCOMM_STATUS_IGNORE)};
    int made[2] = {0, 0}, everywhere[2] = {0, 0};
    for (int k = 0; k < 2; ++k) {
      ASSERT_TRUE(codes[k] == SCOMM_SUCCESS || error_class_of(codes[k]) == SCOMM_ERR_CONTEXT)
          << codes[k];
      made[k] = codes[k] == SCOMM_SUCCESS;
    }
    EXPECT_EQ(made[0] + made[1], 1);
    MPI_Allreduce(made, everywhere, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_EQ(everywhere[0], made[0] * size);
    EXPECT_EQ(everywhere[1], made[1] * size);
    if (made[0]) dups.push_back(blocking);
    if (made[1]) dups.push_back(pending);
    free_blocks -= made[0] + made[1];
  }
  MPI_Comm_free(&mpi_dup);
  for (SCOMM_Comm& d : dups) SCOMM_Comm_free(&d);
  EXPECT_EQ(live_contexts(), 1);
}

// Two blocks free, one at the top of the pool and one below: two idups started together both
// propose the top one (highest-CID), one of them confirms it, and the other must go on to the
// freed block below rather than past the top, where it once found nothing and failed; and
// neither may fail for the other's passing reservation (at 8 ranks, both once did now and then).
TEST_P(ScaleTest, TwoIdupsShareTheTopBlockAndAFreedOne) {
  start("1", "6");
  std::vector<SCOMM_Comm> dups;
  ASSERT_EQ(error_class_of(dup_until_exhausted(dups)), SCOMM_ERR_CONTEXT);
  SCOMM_Comm_free(&dups.front());  // a block below
  SCOMM_Comm_free(&dups.back());   // the top block (ids go up with every dup)
  dups.pop_back();
  dups.erase(dups.begin());
  SCOMM_Comm made[2] = {SCOMM_COMM_NULL, SCOMM_COMM_NULL};
  SCOMM_Request requests[2] = {SCOMM_REQUEST_NULL, SCOMM_REQUEST_NULL};
  for (int k = 0; k < 2; ++k)
    ASSERT_EQ(SCOMM_Comm_idup(SCOMM_COMM_WORLD, &made[k], &requests[k]), SCOMM_SUCCESS);
  for (SCOMM_Request& request : requests)
    EXPECT_EQ(SCOMM_Wait(&request, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  for (SCOMM_Comm& comm : made)
    if (comm != SCOMM_COMM_NULL) SCOMM_Comm_free(&comm);
  for (SCOMM_Comm& d : dups) SCOMM_Comm_free(&d);
  EXPECT_EQ(live_contexts(), 1);
}

// An idup that found the contexts exhausted, its failure not yet reported, does not hold up the
// idups after it: once a block is free, the next one gets it (each member's allocations waited
// for the failed one, which ranked first, forever).
TEST_P(ScaleTest, AFailedIdupKeptUnreportedLetsTheNextOneSettle) {
  start("1", "6");
  std::vector<SCOMM_Comm> dups;
  ASSERT_EQ(error_class_of(dup_until_exhausted(dups)), SCOMM_ERR_CONTEXT);
  SCOMM_Comm failed = SCOMM_COMM_NULL, next = SCOMM_COMM_NULL;
  SCOMM_Request failing = SCOMM_REQUEST_NULL, request = SCOMM_REQUEST_NULL;
  ASSERT_EQ(SCOMM_Comm_idup(SCOMM_COMM_WORLD, &failed, &failing), SCOMM_SUCCESS);
  int flag = 0, code = SCOMM_SUCCESS;
  while (code == SCOMM_SUCCESS && !flag)  // the failure is kept for the request's completion
    code = SCOMM_Request_get_status(failing, &flag, SCOMM_STATUS_IGNORE);
  ASSERT_EQ(error_class_of(code), SCOMM_ERR_CONTEXT);
  EXPECT_EQ(flag, 1);
  SCOMM_Comm_free(&dups.back());
  dups.pop_back();
  ASSERT_EQ(SCOMM_Comm_idup(SCOMM_COMM_WORLD, &next, &request), SCOMM_SUCCESS);
  EXPECT_EQ(SCOMM_Wait(&request, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  EXPECT_EQ(error_class_of(SCOMM_Wait(&failing, SCOMM_STATUS_IGNORE)), SCOMM_ERR_CONTEXT);
  EXPECT_EQ(failed, SCOMM_COMM_NULL);
  if (next != SCOMM_COMM_NULL) dups.push_back(next);
  for (SCOMM_Comm& d : dups) SCOMM_Comm_free(&d);
  EXPECT_EQ(live_contexts(), 1);
}

// Every communicator of a block's derivation tree: 2^bits of them with the root.
void fill(SCOMM_Comm comm, int bits, std::vector<SCOMM_Comm>& out) {
  int size = 0;
  SCOMM_Comm_size(comm, &size);
  for (int slot = 1; slot <= bits; ++slot) {
    SCOMM_Comm child = SCOMM_COMM_NULL;
    ASSERT_EQ(SCOMM_Comm_create_range(comm, size - 1, 0, -1, &child), SCOMM_SUCCESS);
    out.push_back(child);
    fill(child, bits - slot, out);
  }
}

TEST_P(ScaleTest, AMillionLiveCommunicators) {
  if (std::string(GetParam()) != "highest") GTEST_SKIP() << "one algorithm is enough here";
  start("0", "6");  // default base communicators: 2^20 ids
  constexpr int kLive = 1000000;
  std::vector<SCOMM_Comm> comms;
  comms.reserve(kLive + 64);
  while (static_cast<int>(comms.size()) < kLive) {
    SCOMM_Comm root = SCOMM_COMM_NULL;
    ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &root), SCOMM_SUCCESS) << comms.size();
    comms.push_back(root);
    fill(root, 6, comms);
  }
  int communicators = 0, contexts = 0;
  SCOMM_Comm_live(&communicators, &contexts);
  EXPECT_GE(communicators, kLive);
  EXPECT_GE(contexts, kLive);
  // Spot checks: ANY_SOURCE / ANY_TAG rings on every 9,973rd communicator, in flight together.
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<int> got(comms.size() / 9973 + 1, -1), sent(got.size());
  std::vector<SCOMM_Request> requests;
  for (std::size_t i = 0, k = 0; i < comms.size(); i += 9973, ++k) {
    sent[k] = static_cast<int>(i);  // the receiver checks it came on communicator i
    requests.push_back(SCOMM_REQUEST_NULL);
    SCOMM_Irecv(&got[k], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comms[i], &requests.back());
    requests.push_back(SCOMM_REQUEST_NULL);
    SCOMM_Isend(&sent[k], 1, MPI_INT, (rank + 1) % size, static_cast<int>(k % 100), comms[i],
                &requests.back());
  }
  ASSERT_EQ(
      SCOMM_Waitall(static_cast<int>(requests.size()), requests.data(), SCOMM_STATUSES_IGNORE),
      SCOMM_SUCCESS);
  for (std::size_t i = 0, k = 0; i < comms.size(); i += 9973, ++k) EXPECT_EQ(got[k], sent[k]);
  for (auto it = comms.rbegin(); it != comms.rend(); ++it) SCOMM_Comm_free(&*it);
  EXPECT_EQ(live_contexts(), 1);
}

// Blocks without derivation slots (SCOMM_DERIVE_BITS = 0): every local creation allocates its
// context collectively over the parent, and its communicators still keep their messages apart.
TEST_P(ScaleTest, WithoutDerivationSlotsLocalCreationAllocatesCollectively) {
  start("0", "0");
  int slots = -1, rank = 0, size = 0;
  SCOMM_Comm_local_slots(SCOMM_COMM_WORLD, &slots);
  EXPECT_EQ(slots, 0);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  SCOMM_Comm evens = SCOMM_COMM_NULL, reversed = SCOMM_COMM_NULL, first = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, 0, size - 1, 2, &evens), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, size - 1, 0, -1, &reversed), SCOMM_SUCCESS);
  SCOMM_Group world_group = SCOMM_GROUP_NULL, first_half = SCOMM_GROUP_NULL;
  SCOMM_Comm_group(SCOMM_COMM_WORLD, &world_group);
  int half[1][3] = {{0, (size - 1) / 2, 1}};
  SCOMM_Group_range_incl(world_group, 1, half, &first_half);
  ASSERT_EQ(SCOMM_Comm_create_from_group(SCOMM_COMM_WORLD, first_half, &first), SCOMM_SUCCESS);
  ASSERT_EQ(evens != SCOMM_COMM_NULL, rank % 2 == 0);
  ASSERT_EQ(first != SCOMM_COMM_NULL, rank <= (size - 1) / 2);
  int reversed_rank = -1;
  SCOMM_Comm_rank(reversed, &reversed_rank);
  EXPECT_EQ(reversed_rank, size - 1 - rank);
  EXPECT_EQ(live_contexts(), 2 + (evens != SCOMM_COMM_NULL) + (first != SCOMM_COMM_NULL));
  // The same tag on all of them at once, ANY_SOURCE and ANY_TAG receives: each on its own.
  expect_rings_apart({SCOMM_COMM_WORLD, reversed, evens, first});
  for (SCOMM_Comm* comm : {&evens, &reversed, &first}) {
    if (*comm != SCOMM_COMM_NULL) {
      EXPECT_EQ(SCOMM_Comm_free(comm), SCOMM_SUCCESS);
    }
  }
  SCOMM_Group_free(&first_half);
  SCOMM_Group_free(&world_group);
  EXPECT_EQ(live_contexts(), 1);
}

// Without derivation slots a local creation still needs no order with the parent's collectives
// (MPI orders collectives, not local creations): its allocation has a tag of its own. Rank 0
// starts a nonblocking barrier and an idup before creating, the others after; the barrier's or
// the idup's messages met the creation's on one tag (truncation, or a hang) when the creation
// went the collective creations' way.
TEST_P(ScaleTest, WithoutDerivationSlotsLocalCreationNeedsNoOrderWithCollectives) {
  start("0", "0");
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::array<SCOMM_Request, 2> requests{SCOMM_REQUEST_NULL, SCOMM_REQUEST_NULL};
  SCOMM_Comm dup = SCOMM_COMM_NULL, range = SCOMM_COMM_NULL;
  const auto start_collectives = [&] {
    ASSERT_EQ(SCOMM_Ibarrier(SCOMM_COMM_WORLD, &requests[0]), SCOMM_SUCCESS);
    ASSERT_EQ(SCOMM_Comm_idup(SCOMM_COMM_WORLD, &dup, &requests[1]), SCOMM_SUCCESS);
  };
  if (rank == 0) start_collectives();
  ASSERT_EQ(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, 0, size - 1, 1, &range), SCOMM_SUCCESS);
  if (rank != 0) start_collectives();
  ASSERT_EQ(SCOMM_Waitall(2, requests.data(), SCOMM_STATUSES_IGNORE), SCOMM_SUCCESS);
  expect_rings_apart({SCOMM_COMM_WORLD, dup, range});
  EXPECT_EQ(SCOMM_Comm_free(&range), SCOMM_SUCCESS);
  EXPECT_EQ(SCOMM_Comm_free(&dup), SCOMM_SUCCESS);
  EXPECT_EQ(live_contexts(), 1);
}

// Every rank idups the world; rank 0 waits for it before a blocking creation over the world, the
// others make that creation first and wait for the idup after, as MPI's progress rule allows
// (MPICH 4.0 completes it). The creation ranks first at a process only once every member has
// started it, so the idup settles meanwhile; it ranked first from its start until stop 66, and
// held the idup up while rank 0 waited for the idup: a hang. Without derivation slots a local
// creation allocates a block too, blocking.
TEST_P(ScaleTest, APendingIdupSettlesWhileItsPeersSitInABlockingCreation) {
  start("0", "0");
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  SCOMM_Group world_group = SCOMM_GROUP_NULL;
  SCOMM_Comm_group(SCOMM_COMM_WORLD, &world_group);
  const std::function<int(SCOMM_Comm*)> creations[] = {
      [](SCOMM_Comm* made) { return SCOMM_Comm_dup(SCOMM_COMM_WORLD, made); },
      [](SCOMM_Comm* made) { return SCOMM_Comm_split(SCOMM_COMM_WORLD, 0, 0, made); },
      [&](SCOMM_Comm* made) { return SCOMM_Comm_create(SCOMM_COMM_WORLD, world_group, made); },
      [&](SCOMM_Comm* made) {
        return SCOMM_Comm_create_group(SCOMM_COMM_WORLD, world_group, 5, made);
      },
      [&](SCOMM_Comm* made) {
        return SCOMM_Comm_create_range(SCOMM_COMM_WORLD, 0, size - 1, 1, made);
      },
  };
  for (const auto& create : creations) {
    SCOMM_Comm pending = SCOMM_COMM_NULL, made = SCOMM_COMM_NULL;
    SCOMM_Request request = SCOMM_REQUEST_NULL;
    ASSERT_EQ(SCOMM_Comm_idup(SCOMM_COMM_WORLD, &pending, &request), SCOMM_SUCCESS);
    const auto wait = [&] { ASSERT_EQ(SCOMM_Wait(&request, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS); };
    if (rank == 0) wait();
    ASSERT_EQ(create(&made), SCOMM_SUCCESS);
    if (rank != 0) wait();
    expect_rings_apart({SCOMM_COMM_WORLD, pending, made});
    SCOMM_Comm_free(&pending);
    SCOMM_Comm_free(&made);
  }
  SCOMM_Group_free(&world_group);
  EXPECT_EQ(live_contexts(), 1);
}

// Rank 0 starts an isplit of one duplicate of the world, then an idup of another, and waits for
// the idup; the others start the isplit only once their idup has completed. Whichever of the two
// ranks first by priority, the idup settles: the isplit ranks nowhere before all have started it.
TEST_P(ScaleTest, AnIsplitNotEveryMemberStartedHoldsUpNoLaterIdup) {
  start("1", "6");
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (const int split_first : {0, 1}) {
    SCOPED_TRACE(split_first ? "isplit of the first duplicate" : "isplit of the second");
    std::array<SCOMM_Comm, 2> dups{};
    for (SCOMM_Comm& d : dups) ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &d), SCOMM_SUCCESS);
    SCOMM_Comm split_parent = dups[split_first ? 0 : 1], dup_parent = dups[split_first ? 1 : 0];
    SCOMM_Comm halves = SCOMM_COMM_NULL, copy = SCOMM_COMM_NULL;
    SCOMM_Request splitting = SCOMM_REQUEST_NULL, duplicating = SCOMM_REQUEST_NULL;
    const auto start_split = [&] {
      ASSERT_EQ(SCOMM_Comm_isplit(split_parent, rank % 2, 0, &halves, &splitting), SCOMM_SUCCESS);
    };
    if (rank == 0) start_split();
    ASSERT_EQ(SCOMM_Comm_idup(dup_parent, &copy, &duplicating), SCOMM_SUCCESS);
    ASSERT_EQ(SCOMM_Wait(&duplicating, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
    if (rank != 0) start_split();
    ASSERT_EQ(SCOMM_Wait(&splitting, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
    expect_rings_apart({dups[0], dups[1], copy, halves});
    for (SCOMM_Comm* comm : {&halves, &copy, &dups[0], &dups[1]}) SCOMM_Comm_free(comm);
  }
  EXPECT_EQ(live_contexts(), 1);
}

INSTANTIATE_TEST_SUITE_P(Algorithms, ScaleTest, ::testing::Values("vanilla", "bitmask", "highest"),
                         [](const auto& algorithm) { return std::string(algorithm.param); });

}  // namespace
