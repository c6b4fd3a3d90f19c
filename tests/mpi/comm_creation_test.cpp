// Communicator creation on the real MPI: split against MPI_Comm_split, local ranges against
// MPI's range semantics, dup / idup / isplit / create / create_group, conversions to and from
// MPI, and the context rules (local creation falls back to a collective block when the parent's
// derivation bits run out).
#include <algorithm>
#include <array>
#include <numeric>
#include <random>

#include <unistd.h>

#include "scomm/context/tag_layout.hpp"
#include "scomm_fixture.hpp"

namespace {

struct SplitCase {
  const char* name;
  int (*color)(int rank, int size, int seed);
  int (*key)(int rank, int size, int seed);
};

int hashed(int rank, int seed, int modulus) {
  std::mt19937 random(static_cast<unsigned>(seed * 7919 + rank));
  return static_cast<int>(random() % static_cast<unsigned>(modulus));
}

const SplitCase kSplitCases[] = {
    {"halves", [](int r, int p, int) { return r < (p + 1) / 2 ? 0 : 1; },
     [](int r, int, int) { return r; }},
    {"mod3_reversed", [](int r, int, int) { return r % 3; }, [](int r, int, int) { return -r; }},
    {"random_with_undefined",
     [](int r, int, int s) {
       const int c = hashed(r, s, 4);
       return c == 3 ? MPI_UNDEFINED : c;
     },
     [](int r, int, int s) { return hashed(r, s + 1, 3); }},
    {"one_color_equal_keys", [](int, int, int) { return 5; }, [](int, int, int) { return 0; }},
    // Blocked (every color a contiguous range in key = rank order): the O(1)-memory path.
    {"blocks_of_three", [](int r, int, int) { return r / 3; }, [](int r, int, int) { return r; }},
    {"blocks_of_seed_plus_one_equal_keys", [](int r, int, int s) { return r / (s + 1); },
     [](int, int, int) { return 7; }},
    // Nearly blocked, so they must take the general path: keys against rank order, colors
    // decreasing, a color that comes back.
    {"blocks_reversed_keys", [](int r, int, int) { return r / 2; },
     [](int r, int, int) { return -r; }},
    {"decreasing_blocks", [](int r, int p, int) { return p - r / 2; },
     [](int r, int, int) { return r; }},
    {"color_comes_back", [](int r, int, int) { return r % 4 < 2 ? 0 : 1; },
     [](int r, int, int) { return r; }},
};

class CreationTest : public ScommTest {};

TEST_F(CreationTest, WorldMatchesMpiCommWorld) {
  int size = 0, rank = 0;
  ASSERT_EQ(SCOMM_Comm_size(SCOMM_COMM_WORLD, &size), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_rank(SCOMM_COMM_WORLD, &rank), SCOMM_SUCCESS);
  EXPECT_EQ(size, world_size_);
  EXPECT_EQ(rank, world_rank_);
  EXPECT_EQ(members_of(SCOMM_COMM_WORLD), members_of_mpi(MPI_COMM_WORLD));
}

TEST_F(CreationTest, SplitGivesTheGroupsOfMpiCommSplit) {
  for (const SplitCase& c : kSplitCases) {
    for (int seed = 0; seed < 3; ++seed) {
      const int color = c.color(world_rank_, world_size_, seed);
      const int key = c.key(world_rank_, world_size_, seed);
      MPI_Comm mpi = MPI_COMM_NULL;
      MPI_Comm_split(MPI_COMM_WORLD, color, key, &mpi);
      SCOMM_Comm mine = SCOMM_COMM_NULL;
      ASSERT_EQ(SCOMM_Comm_split(SCOMM_COMM_WORLD, color, key, &mine), SCOMM_SUCCESS);
      ASSERT_EQ(mine == SCOMM_COMM_NULL, mpi == MPI_COMM_NULL) << c.name;
      if (mpi == MPI_COMM_NULL) continue;
      EXPECT_EQ(members_of(mine), members_of_mpi(mpi)) << c.name << " seed " << seed;
      int rank = -1, mpi_rank = -2;
      SCOMM_Comm_rank(mine, &rank);
      MPI_Comm_rank(mpi, &mpi_rank);
      EXPECT_EQ(rank, mpi_rank);
      ASSERT_EQ(SCOMM_Comm_free(&mine), SCOMM_SUCCESS);
      EXPECT_EQ(mine, SCOMM_COMM_NULL);
      MPI_Comm_free(&mpi);
    }
  }
}

TEST_F(CreationTest, SplitOfASplitMatchesMpi) {
  MPI_Comm mpi_half = MPI_COMM_NULL, mpi_quarter = MPI_COMM_NULL;
  SCOMM_Comm half = SCOMM_COMM_NULL, quarter = SCOMM_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank_ % 2, world_rank_, &mpi_half);
  ASSERT_EQ(SCOMM_Comm_split(SCOMM_COMM_WORLD, world_rank_ % 2, world_rank_, &half), 0);
  int r = 0;
  SCOMM_Comm_rank(half, &r);
  MPI_Comm_split(mpi_half, r / 2, -r, &mpi_quarter);
  ASSERT_EQ(SCOMM_Comm_split(half, r / 2, -r, &quarter), 0);
  EXPECT_EQ(members_of(quarter), members_of_mpi(mpi_quarter));
  SCOMM_Comm_free(&quarter);
  SCOMM_Comm_free(&half);
  MPI_Comm_free(&mpi_quarter);
  MPI_Comm_free(&mpi_half);
}

// The members on each rank's node against MPI_Comm_split_type's, on the world and on a parent
// whose ranks are not the world's, with keys that keep, reverse and tie the parent's order and
// ranks that ask for SCOMM_UNDEFINED. (Under SMPI every simulated rank is a node of its own.)
TEST_F(CreationTest, SplitTypeSharedGivesTheGroupsOfMpiCommSplitType) {
  MPI_Comm mpi_parent = MPI_COMM_NULL;
  SCOMM_Comm parent = SCOMM_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, 0, -world_rank_, &mpi_parent);
  ASSERT_EQ(SCOMM_Comm_split(SCOMM_COMM_WORLD, 0, -world_rank_, &parent), SCOMM_SUCCESS);
  const std::pair<MPI_Comm, SCOMM_Comm> parents[] = {{MPI_COMM_WORLD, SCOMM_COMM_WORLD},
                                                     {mpi_parent, parent}};
  for (const auto& [mpi_comm, comm] : parents) {
    int rank = 0;
    MPI_Comm_rank(mpi_comm, &rank);
    for (int seed = 0; seed < 4; ++seed) {
      const int key = seed == 0 ? rank : seed == 1 ? -rank : hashed(rank, seed, 2);
      const int type = seed == 3 && rank % 3 == 1 ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED;
      MPI_Comm mpi = MPI_COMM_NULL;
      MPI_Comm_split_type(mpi_comm, type, key, MPI_INFO_NULL, &mpi);
      SCOMM_Comm mine = SCOMM_COMM_NULL;
      ASSERT_EQ(SCOMM_Comm_split_type(comm, type, key, MPI_INFO_NULL, &mine), SCOMM_SUCCESS);
      ASSERT_EQ(mine == SCOMM_COMM_NULL, mpi == MPI_COMM_NULL) << "seed " << seed;
      if (mpi == MPI_COMM_NULL) continue;
      EXPECT_EQ(members_of(mine), members_of_mpi(mpi)) << "seed " << seed;
      ASSERT_EQ(SCOMM_Comm_free(&mine), SCOMM_SUCCESS);
      MPI_Comm_free(&mpi);
    }
  }
  SCOMM_Comm_free(&parent);
  MPI_Comm_free(&mpi_parent);
}

// MPI's range semantics: first, first + stride, ... while not past last.
std::vector<int> range_members(int first, int last, int stride) {
  std::vector<int> out;
  for (int r = first; stride > 0 ? r <= last : r >= last; r += stride) out.push_back(r);
  return out;
}

TEST_F(CreationTest, CreateRangeIsLocalAndFollowsRangeSemantics) {
  const int p = world_size_;
  const int cases[][3] = {
      {0, p - 1, 1}, {p - 1, 0, -1}, {0, p - 1, 2}, {p / 2, p - 1, 1}, {p - 1, 0, -3}};
  for (const auto& c : cases) {
    SCOMM_Comm child = SCOMM_COMM_NULL;
    ASSERT_EQ(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, c[0], c[1], c[2], &child), 0);
    const auto expected = range_members(c[0], c[1], c[2]);
    const auto at = std::find(expected.begin(), expected.end(), world_rank_);
    ASSERT_EQ(child != SCOMM_COMM_NULL, at != expected.end());
    if (child == SCOMM_COMM_NULL) continue;
    EXPECT_EQ(members_of(child), expected);
    int rank = -1;
    SCOMM_Comm_rank(child, &rank);
    EXPECT_EQ(rank, at - expected.begin());
    SCOMM_Comm_free(&child);
  }
}

// Every member receives its left neighbour's world rank around a ring over `comm`.
void expect_ring_works(SCOMM_Comm comm, int tag) {
  int size = 0, rank = 0, me = 0, got = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  SCOMM_Comm_size(comm, &size);
  SCOMM_Comm_rank(comm, &rank);
  const int to = (rank + 1) % size, from = (rank + size - 1) % size;
  SCOMM_Status status;
  ASSERT_EQ(SCOMM_Sendrecv(&me, 1, MPI_INT, to, tag, &got, 1, MPI_INT, from, tag, comm, &status),
            0);
  EXPECT_EQ(got, members_of(comm)[static_cast<std::size_t>(from)]);
  EXPECT_EQ(status.SCOMM_SOURCE, from);
  EXPECT_EQ(status.SCOMM_TAG, tag);
}

void expect_only_world_left() {
  int communicators = 0, contexts = 0;
  SCOMM_Comm_live(&communicators, &contexts);
  EXPECT_EQ(communicators, 1);
  EXPECT_EQ(contexts, 1);
}

// Recursive halving (disjoint halves, RBC's split) down to single processes, then a chain of
// nested full ranges far beyond the derivation bits: when a parent's bits run out the creation
// allocates a block collectively, and every level still talks only among itself.
TEST_F(CreationTest, RecursiveRangesKeepWorking) {
  std::vector<SCOMM_Comm> chain{SCOMM_COMM_WORLD};
  for (int size = world_size_, level = 0; size > 1; ++level) {
    int rank = 0;
    SCOMM_Comm_rank(chain.back(), &rank);
    const int half = (size + 1) / 2;
    SCOMM_Comm left = SCOMM_COMM_NULL, right = SCOMM_COMM_NULL;
    if (level % 2 == 0) {  // every member creates both halves
      ASSERT_EQ(SCOMM_Comm_create_range(chain.back(), 0, half - 1, 1, &left), 0);
      ASSERT_EQ(SCOMM_Comm_create_range(chain.back(), half, size - 1, 1, &right), 0);
    } else if (rank < half) {  // every member creates its own half only (RBC's split)
      ASSERT_EQ(SCOMM_Comm_create_range(chain.back(), 0, half - 1, 1, &left), 0);
    } else {
      ASSERT_EQ(SCOMM_Comm_create_range(chain.back(), half, size - 1, 1, &right), 0);
    }
    ASSERT_NE(left == SCOMM_COMM_NULL, right == SCOMM_COMM_NULL);
    chain.push_back(left != SCOMM_COMM_NULL ? left : right);
    SCOMM_Comm_size(chain.back(), &size);
    expect_ring_works(chain.back(), static_cast<int>(chain.size()));
  }
  for (int level = 0; level < 20; ++level) {
    SCOMM_Comm child = SCOMM_COMM_NULL;
    int size = 0;
    SCOMM_Comm_size(chain.back(), &size);
    ASSERT_EQ(SCOMM_Comm_create_range(chain.back(), 0, size - 1, 1, &child), 0);
    chain.push_back(child);
    expect_ring_works(child, level);
  }
  for (auto it = chain.rbegin(); it + 1 != chain.rend(); ++it) SCOMM_Comm_free(&*it);
  expect_only_world_left();
}

TEST_F(CreationTest, LocalCreateAndFreeReusesSlots) {
  for (int i = 0; i < 100; ++i) {
    SCOMM_Comm child = SCOMM_COMM_NULL;
    ASSERT_EQ(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, world_size_ - 1, 0, -1, &child), 0);
    if (i % 10 == 0) expect_ring_works(child, i);
    ASSERT_EQ(SCOMM_Comm_free(&child), 0);
  }
  expect_only_world_left();
}

// MPI's range triplet: `last` bounds the range without being one of its ranks, nor a rank of the
// communicator; the ranks computed must be.
TEST_F(CreationTest, ARangeMayEndPastItsLastRank) {
  const int evens = (world_size_ + 1) / 2;
  for (const auto [first, last, stride] :
       {std::array{0, 2 * evens - 1, 2}, std::array{2 * (evens - 1), -1, -2}}) {
    SCOMM_Comm child = SCOMM_COMM_NULL;
    ASSERT_EQ(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, first, last, stride, &child),
              SCOMM_SUCCESS);
    ASSERT_EQ(child == SCOMM_COMM_NULL, world_rank_ % 2 == 1) << first << " " << last;
    if (child == SCOMM_COMM_NULL) continue;
    int size = 0, rank = -1;
    SCOMM_Comm_size(child, &size);
    SCOMM_Comm_rank(child, &rank);
    EXPECT_EQ(size, evens);
    EXPECT_EQ(rank, stride > 0 ? world_rank_ / 2 : evens - 1 - world_rank_ / 2);
    ASSERT_EQ(SCOMM_Comm_free(&child), SCOMM_SUCCESS);
  }
  expect_only_world_left();
}

// More live overlapping children than the parent has slots: each slot serves once, then every
// child takes a whole block of a run that one allocation over the parent reserved (runs of 2, 4,
// 8, ... blocks with highest-CID, the default, uncontended here).
TEST_F(CreationTest, LiveChildrenBeyondTheSlotsTakeFreshBlocks) {
  SCOMM_Comm parent = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &parent), SCOMM_SUCCESS);
  int slots = 0;
  ASSERT_EQ(SCOMM_Comm_local_slots(parent, &slots), SCOMM_SUCCESS);
  EXPECT_EQ(slots, 4);  // SCOMM_DERIVE_BITS = 4
  std::vector<SCOMM_Comm> children;
  std::vector<int> runs;
  for (int i = 0; i < 40; ++i) {
    SCOMM_Comm child = SCOMM_COMM_NULL;
    ASSERT_EQ(SCOMM_Comm_create_range(parent, 0, world_size_ - 1, 1, &child), SCOMM_SUCCESS);
    children.push_back(child);
    int left = -1;
    SCOMM_Comm_local_slots(parent, &left);
    if (slots > 0)
      EXPECT_EQ(left, slots - 1) << "creation " << i;
    else
      runs.push_back(left + 1);  // a fresh run, one block of it taken
    slots = left;
  }
  EXPECT_EQ(runs, (std::vector<int>{2, 4, 8, 16, 32}));
  int child_slots = 0;
  SCOMM_Comm_local_slots(children.back(), &child_slots);
  EXPECT_EQ(child_slots, 4);  // a whole block: as many slots as a collectively created one
  for (std::size_t i = 0; i < children.size(); ++i)
    expect_ring_works(children[i], static_cast<int>(i));
  for (SCOMM_Comm& c : children) SCOMM_Comm_free(&c);
  SCOMM_Comm_free(&parent);
  expect_only_world_left();
}

// A member that runs ahead of another by more creations than the parent has slots, while the
// other still receives on an earlier child from any source: the ahead member's message on its
// newest child must not land in that receive. Rank 0 frees the first child (ranks 0-2) and makes
// creations that leave rank 1 out until the parent's first slot would come round again, then
// sends to rank 1 on a child of ranks 0 and 1; rank 1 is still waiting on the first child for
// rank 2, which sends late.
TEST_F(CreationTest, AMemberRunningAheadNeverSharesAContextInUse) {
  if (world_size_ < 3) GTEST_SKIP() << "needs 3 ranks";
  SCOMM_Comm parent = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &parent), SCOMM_SUCCESS);
  int slots = 0;
  SCOMM_Comm_local_slots(parent, &slots);
  SCOMM_Comm first = SCOMM_COMM_NULL, newest = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_create_range(parent, 0, 2, 1, &first), SCOMM_SUCCESS);
  SCOMM_Status status;
  int value = -1;
  if (world_rank_ == 1) {  // from rank 2, which has not sent yet
    ASSERT_EQ(SCOMM_Recv(&value, 1, MPI_INT, SCOMM_ANY_SOURCE, 0, first, &status), 0);
  }
  if (world_rank_ == 2) {
    usleep(100000);  // rank 0 runs ahead meanwhile
    const int late = 222;
    ASSERT_EQ(SCOMM_Send(&late, 1, MPI_INT, 1, 0, first), 0);
  }
  if (first != SCOMM_COMM_NULL) SCOMM_Comm_free(&first);
  for (int i = 1; i < slots; ++i) {  // creations rank 1 takes no part in but counts
    SCOMM_Comm alone = SCOMM_COMM_NULL;
    ASSERT_EQ(SCOMM_Comm_create_range(parent, 0, 0, 1, &alone), SCOMM_SUCCESS);
    if (alone != SCOMM_COMM_NULL) SCOMM_Comm_free(&alone);
  }
  ASSERT_EQ(SCOMM_Comm_create_range(parent, 0, 1, 1, &newest), SCOMM_SUCCESS);
  if (world_rank_ == 0) {
    const int ahead = 555;
    ASSERT_EQ(SCOMM_Send(&ahead, 1, MPI_INT, 1, 0, newest), 0);
  }
  if (world_rank_ == 1) {
    EXPECT_EQ(value, 222);
    EXPECT_EQ(status.SCOMM_SOURCE, 2);
    if (value == 222) {  // else rank 0's message is gone, and waiting for it would hang
      ASSERT_EQ(SCOMM_Recv(&value, 1, MPI_INT, 0, 0, newest, SCOMM_STATUS_IGNORE), 0);
      EXPECT_EQ(value, 555);
    }
  }
  if (newest != SCOMM_COMM_NULL) SCOMM_Comm_free(&newest);
  SCOMM_Comm_free(&parent);
}

TEST_F(CreationTest, DupIsCongruentAndSeparate) {
  SCOMM_Comm dup = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &dup), 0);
  int result = -1;
  SCOMM_Comm_compare(SCOMM_COMM_WORLD, dup, &result);
  EXPECT_EQ(result, MPI_CONGRUENT);
  SCOMM_Comm_compare(dup, dup, &result);
  EXPECT_EQ(result, MPI_IDENT);
  // The same tag on both: each receive gets its own communicator's message.
  const int to = (world_rank_ + 1) % world_size_;
  const int from = (world_rank_ + world_size_ - 1) % world_size_;
  int on_world = 100 + world_rank_, on_dup = 200 + world_rank_, got_world = -1, got_dup = -1;
  SCOMM_Request requests[4];
  SCOMM_Irecv(&got_dup, 1, MPI_INT, from, 7, dup, &requests[0]);
  SCOMM_Irecv(&got_world, 1, MPI_INT, MPI_ANY_SOURCE, 7, SCOMM_COMM_WORLD, &requests[1]);
  SCOMM_Isend(&on_world, 1, MPI_INT, to, 7, SCOMM_COMM_WORLD, &requests[2]);
  SCOMM_Isend(&on_dup, 1, MPI_INT, to, 7, dup, &requests[3]);
  ASSERT_EQ(SCOMM_Waitall(4, requests, SCOMM_STATUSES_IGNORE), 0);
  EXPECT_EQ(got_world, 100 + from);
  EXPECT_EQ(got_dup, 200 + from);
  SCOMM_Comm_free(&dup);
}

// With info: the same duplicates (scomm honours no hint, so the hints in use are none).
TEST_F(CreationTest, DupsWithInfoAreDupsAndUseNoHints) {
  MPI_Info info = MPI_INFO_NULL;
  MPI_Info_create(&info);
  MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
  SCOMM_Comm dup = SCOMM_COMM_NULL, idup = SCOMM_COMM_NULL;
  SCOMM_Request request = SCOMM_REQUEST_NULL;
  ASSERT_EQ(SCOMM_Comm_dup_with_info(SCOMM_COMM_WORLD, info, &dup), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_idup_with_info(dup, info, &idup, &request), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Wait(&request, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  int result = -1;
  SCOMM_Comm_compare(dup, idup, &result);
  EXPECT_EQ(result, MPI_CONGRUENT);
  expect_rings_apart({SCOMM_COMM_WORLD, dup, idup});
  ASSERT_EQ(SCOMM_Comm_set_info(idup, info), SCOMM_SUCCESS);
  MPI_Info used = MPI_INFO_NULL;
  ASSERT_EQ(SCOMM_Comm_get_info(idup, &used), SCOMM_SUCCESS);
  int keys = -1;
  MPI_Info_get_nkeys(used, &keys);
  EXPECT_EQ(keys, 0);
  MPI_Info_free(&used);
  MPI_Info_free(&info);
  SCOMM_Comm_free(&idup);
  SCOMM_Comm_free(&dup);
}

TEST_F(CreationTest, IdupAndIsplitProgressTogether) {
  SCOMM_Comm dup = SCOMM_COMM_NULL, split = SCOMM_COMM_NULL;
  SCOMM_Request requests[2];
  ASSERT_EQ(SCOMM_Comm_idup(SCOMM_COMM_WORLD, &dup, &requests[0]), 0);
  ASSERT_EQ(SCOMM_Comm_isplit(SCOMM_COMM_WORLD, world_rank_ % 2, 0, &split, &requests[1]), 0);
  // Other traffic meanwhile.
  int token = world_rank_, got = -1;
  ASSERT_EQ(SCOMM_Sendrecv(&token, 1, MPI_INT, (world_rank_ + 1) % world_size_, 1, &got, 1, MPI_INT,
                           MPI_ANY_SOURCE, 1, SCOMM_COMM_WORLD, SCOMM_STATUS_IGNORE),
            0);
  EXPECT_EQ(got, (world_rank_ + world_size_ - 1) % world_size_);
  ASSERT_EQ(SCOMM_Waitall(2, requests, SCOMM_STATUSES_IGNORE), 0);
  EXPECT_EQ(requests[0], SCOMM_REQUEST_NULL);
  ASSERT_NE(dup, SCOMM_COMM_NULL);
  ASSERT_NE(split, SCOMM_COMM_NULL);
  EXPECT_EQ(members_of(dup), members_of_mpi(MPI_COMM_WORLD));
  MPI_Comm mpi_split = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank_ % 2, 0, &mpi_split);
  EXPECT_EQ(members_of(split), members_of_mpi(mpi_split));
  MPI_Comm_free(&mpi_split);
  SCOMM_Comm_free(&split);
  SCOMM_Comm_free(&dup);
}

// Nonblocking creations on overlapping communicators, started in a different order at every
// rank (MPI only orders collectives on one communicator), completed together by one Waitall
// while a blocking dup runs in between: all must settle, agree, and keep messages apart.
TEST_F(CreationTest, NonblockingCreationsInDifferentOrdersOnOverlappingCommunicators) {
  std::vector<SCOMM_Comm> parents{SCOMM_COMM_WORLD};
  for (int k = 0; k < 3; ++k) {
    SCOMM_Comm c = SCOMM_COMM_NULL;
    SCOMM_Comm_dup(SCOMM_COMM_WORLD, &c);
    parents.push_back(c);
  }
  std::mt19937 random(static_cast<unsigned>(world_rank_) * 31u + 5u);
  std::vector<std::size_t> order(parents.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), random);
  std::vector<SCOMM_Comm> made(2 * parents.size(), SCOMM_COMM_NULL);
  std::vector<SCOMM_Request> requests;
  for (std::size_t i : order) {
    requests.push_back(SCOMM_REQUEST_NULL);
    ASSERT_EQ(SCOMM_Comm_idup(parents[i], &made[2 * i], &requests.back()), 0);
    requests.push_back(SCOMM_REQUEST_NULL);
    ASSERT_EQ(SCOMM_Comm_isplit(parents[i], world_rank_ % 2, 0, &made[2 * i + 1], &requests.back()),
              0);
  }
  SCOMM_Comm blocking = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &blocking), 0);
  ASSERT_EQ(
      SCOMM_Waitall(static_cast<int>(requests.size()), requests.data(), SCOMM_STATUSES_IGNORE), 0);
  made.push_back(blocking);
  for (std::size_t i = 0; i < made.size(); ++i) {
    ASSERT_NE(made[i], SCOMM_COMM_NULL) << i;
    expect_ring_works(made[i], static_cast<int>(i));
  }
  for (SCOMM_Comm& c : made) SCOMM_Comm_free(&c);
  for (std::size_t i = 1; i < parents.size(); ++i) SCOMM_Comm_free(&parents[i]);
  expect_only_world_left();
}

// A nonblocking creation's communicator has its parent's error handler as it was at the start,
// as MPI's do, even when the parent is freed before the creation completes: an error on it is
// returned, not fatal.
TEST_F(CreationTest, NonblockingCreationsKeepTheParentsErrorHandlerWhenItIsFreedFirst) {
  for (const bool split : {false, true}) {
    SCOMM_Comm parent = SCOMM_COMM_NULL, child = SCOMM_COMM_NULL;
    ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &parent), 0);
    ASSERT_EQ(SCOMM_Comm_set_errhandler(parent, SCOMM_ERRORS_RETURN), 0);
    SCOMM_Request request = SCOMM_REQUEST_NULL;
    ASSERT_EQ(split ? SCOMM_Comm_isplit(parent, 0, world_rank_, &child, &request)
                    : SCOMM_Comm_idup(parent, &child, &request),
              0);
    ASSERT_EQ(SCOMM_Comm_free(&parent), 0);
    ASSERT_EQ(SCOMM_Wait(&request, SCOMM_STATUS_IGNORE), 0);
    SCOMM_Errhandler handler = SCOMM_ERRORS_ARE_FATAL;
    ASSERT_EQ(SCOMM_Comm_get_errhandler(child, &handler), 0);
    ASSERT_EQ(handler, SCOMM_ERRORS_RETURN) << (split ? "isplit" : "idup");
    const int value = 0;
    int error_class = -1;
    SCOMM_Error_class(SCOMM_Send(&value, 1, MPI_INT, world_size_, 0, child), &error_class);
    EXPECT_EQ(error_class, SCOMM_ERR_RANK);
    ASSERT_EQ(SCOMM_Comm_free(&child), 0);
  }
}

// MPI's progress rule: nonblocking creations started in one order complete whichever one each
// member waits for first (half the ranks wait for them in reverse), as each advances while its
// process waits for another.
TEST_F(CreationTest, NonblockingCreationsCompleteWhicheverOneEachMemberWaitsForFirst) {
  SCOMM_Comm dup = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &dup), SCOMM_SUCCESS);
  std::array<SCOMM_Comm, 4> made{SCOMM_COMM_NULL, SCOMM_COMM_NULL, SCOMM_COMM_NULL,
                                 SCOMM_COMM_NULL};
  std::array<SCOMM_Request, 4> requests{};
  ASSERT_EQ(SCOMM_Comm_idup(SCOMM_COMM_WORLD, &made[0], &requests[0]), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_isplit(dup, world_rank_ % 2, 0, &made[1], &requests[1]), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_idup(dup, &made[2], &requests[2]), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_isplit(SCOMM_COMM_WORLD, 0, -world_rank_, &made[3], &requests[3]),
            SCOMM_SUCCESS);
  if (world_rank_ % 2 == 1) std::reverse(requests.begin(), requests.end());
  for (SCOMM_Request& request : requests) ASSERT_EQ(SCOMM_Wait(&request, SCOMM_STATUS_IGNORE), 0);
  for (std::size_t i = 0; i < made.size(); ++i) {
    ASSERT_NE(made[i], SCOMM_COMM_NULL) << i;
    expect_ring_works(made[i], static_cast<int>(i));
  }
  for (SCOMM_Comm& c : made) SCOMM_Comm_free(&c);
  SCOMM_Comm_free(&dup);
  expect_only_world_left();
}

// Local creations that use up the parent's slots and several runs of fresh blocks (each run one
// blocking allocation over the parent) while an idup and an isplit of the same parent, and an
// idup of the world started in a different place at every rank, are still in flight; some
// creations leave ranks out, whose blocks go back. Everything settles and agrees, every result
// keeps its messages apart, and frees in a different order at every rank give every id back.
TEST_F(CreationTest, LocalCreationsRunOutWhileNonblockingCreationsAreInFlight) {
  SCOMM_Comm parent = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &parent), SCOMM_SUCCESS);
  // Where the nonblocking creations write their results: it must not move while they run.
  std::array<SCOMM_Comm, 3> started{SCOMM_COMM_NULL, SCOMM_COMM_NULL, SCOMM_COMM_NULL};
  std::array<SCOMM_Request, 3> requests{SCOMM_REQUEST_NULL, SCOMM_REQUEST_NULL, SCOMM_REQUEST_NULL};
  ASSERT_EQ(SCOMM_Comm_idup(parent, &started[0], &requests[0]), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_isplit(parent, world_rank_ % 2, -world_rank_, &started[1], &requests[1]),
            SCOMM_SUCCESS);
  const int world_idup_at = world_rank_ % 5;  // collectives on other communicators: any order
  std::vector<SCOMM_Comm> made;
  for (int i = 0; i < 24; ++i) {
    if (i == world_idup_at) {
      ASSERT_EQ(SCOMM_Comm_idup(SCOMM_COMM_WORLD, &started[2], &requests[2]), SCOMM_SUCCESS);
    }
    const int last = i % 3 == 0 ? world_size_ - 1 : std::max(0, world_size_ - 2);
    SCOMM_Comm child = SCOMM_COMM_NULL;
    ASSERT_EQ(SCOMM_Comm_create_range(parent, 0, last, 1, &child), SCOMM_SUCCESS) << i;
    EXPECT_EQ(child != SCOMM_COMM_NULL, world_rank_ <= last) << i;
    made.push_back(child);
  }
  ASSERT_EQ(SCOMM_Waitall(3, requests.data(), SCOMM_STATUSES_IGNORE), 0);
  EXPECT_EQ(members_of(started[0]), members_of_mpi(MPI_COMM_WORLD));
  MPI_Comm mpi_split = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank_ % 2, -world_rank_, &mpi_split);
  EXPECT_EQ(members_of(started[1]), members_of_mpi(mpi_split));
  MPI_Comm_free(&mpi_split);
  EXPECT_EQ(members_of(started[2]), members_of_mpi(MPI_COMM_WORLD));
  made.insert(made.begin(), started.begin(), started.end());
  for (std::size_t i = 0; i < made.size(); ++i)
    if (made[i] != SCOMM_COMM_NULL) expect_ring_works(made[i], static_cast<int>(i));
  std::mt19937 random(static_cast<unsigned>(world_rank_) * 17u + 3u);
  std::shuffle(made.begin(), made.end(), random);
  for (SCOMM_Comm& c : made) {
    if (c != SCOMM_COMM_NULL) {
      EXPECT_EQ(SCOMM_Comm_free(&c), SCOMM_SUCCESS);
    }
  }
  SCOMM_Comm_free(&parent);
  expect_only_world_left();
}

// Creations take internal tags as collectives do (an isplit four, an idup one) and hold them
// while in flight, all before sending anything: with every tag held, the next creation fails
// loudly -- alike at every member, as all started the same operations and completed none --, the
// next collective waits for its tag in turn, and every operation started before completes
// intact.
TEST_F(CreationTest, CreationsInFlightHoldTheirInternalTags) {
  constexpr int kTags = scomm::context::TagLayout::kSequencedTags;
  constexpr int kSplits = 23, kDups = 96, kBarriers = kTags - 4 * kSplits - kDups;
  static_assert(kBarriers > 0);
  const SCOMM_Comm world = SCOMM_COMM_WORLD;
  SCOMM_Comm_set_errhandler(world, SCOMM_ERRORS_RETURN);
  std::vector<SCOMM_Comm> made(kDups + kSplits, SCOMM_COMM_NULL);  // never moves
  std::vector<SCOMM_Request> requests(made.size() + kBarriers, SCOMM_REQUEST_NULL);
  for (int i = 0; i < kDups + kSplits; ++i) {
    const auto at = static_cast<std::size_t>(i);
    if (i < kDups) {
      ASSERT_EQ(SCOMM_Comm_idup(world, &made[at], &requests[at]), SCOMM_SUCCESS) << i;
    } else {
      ASSERT_EQ(
          SCOMM_Comm_isplit(world, (world_rank_ + i) % 2, -world_rank_, &made[at], &requests[at]),
          SCOMM_SUCCESS)
          << i;
    }
  }
  for (std::size_t b = made.size(); b < requests.size(); ++b)
    ASSERT_EQ(SCOMM_Ibarrier(world, &requests[b]), SCOMM_SUCCESS);
  SCOMM_Comm refused = SCOMM_COMM_NULL;
  SCOMM_Request refused_request = SCOMM_REQUEST_NULL;
  EXPECT_EQ(error_class_of(SCOMM_Comm_isplit(world, 0, 0, &refused, &refused_request)),
            SCOMM_ERR_INTERN);
  EXPECT_EQ(error_class_of(SCOMM_Comm_idup(world, &refused, &refused_request)), SCOMM_ERR_INTERN);
  EXPECT_EQ(refused, SCOMM_COMM_NULL);
  requests.push_back(SCOMM_REQUEST_NULL);
  ASSERT_EQ(SCOMM_Ibarrier(world, &requests.back()), SCOMM_SUCCESS);
  ASSERT_EQ(
      SCOMM_Waitall(static_cast<int>(requests.size()), requests.data(), SCOMM_STATUSES_IGNORE),
      SCOMM_SUCCESS);
  for (int parity = 0; parity < 2; ++parity) {
    MPI_Comm mpi_split = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, (world_rank_ + parity) % 2, -world_rank_, &mpi_split);
    for (int i = kDups + parity; i < kDups + kSplits; i += 2)
      EXPECT_EQ(members_of(made[static_cast<std::size_t>(i)]), members_of_mpi(mpi_split)) << i;
    MPI_Comm_free(&mpi_split);
  }
  for (std::size_t i = 0; i < made.size(); i += 7) expect_ring_works(made[i], static_cast<int>(i));
  for (SCOMM_Comm& c : made) EXPECT_EQ(SCOMM_Comm_free(&c), SCOMM_SUCCESS);
  expect_only_world_left();
}

TEST_F(CreationTest, CreateAndCreateGroupMatchMpi) {
  SCOMM_Group world_group = SCOMM_GROUP_NULL, evens = SCOMM_GROUP_NULL;
  SCOMM_Comm_group(SCOMM_COMM_WORLD, &world_group);
  int range[1][3] = {{world_size_ - 1 - (world_size_ - 1) % 2, 0, -2}};  // even ranks, reversed
  SCOMM_Group_range_incl(world_group, 1, range, &evens);
  SCOMM_Comm created = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_create(SCOMM_COMM_WORLD, evens, &created), 0);
  MPI_Group mpi_world, mpi_evens;
  MPI_Comm_group(MPI_COMM_WORLD, &mpi_world);
  MPI_Group_range_incl(mpi_world, 1, range, &mpi_evens);
  MPI_Comm mpi_created = MPI_COMM_NULL;
  MPI_Comm_create(MPI_COMM_WORLD, mpi_evens, &mpi_created);
  ASSERT_EQ(created == SCOMM_COMM_NULL, mpi_created == MPI_COMM_NULL);
  if (created != SCOMM_COMM_NULL) {
    EXPECT_EQ(members_of(created), members_of_mpi(mpi_created));
    SCOMM_Comm by_group = SCOMM_COMM_NULL;
    ASSERT_EQ(SCOMM_Comm_create_group(SCOMM_COMM_WORLD, evens, 3, &by_group), 0);
    EXPECT_EQ(members_of(by_group), members_of_mpi(mpi_created));
    int value = world_rank_, sum = 0;
    int size = 0, rank = 0;
    SCOMM_Comm_size(by_group, &size);
    SCOMM_Comm_rank(by_group, &rank);
    SCOMM_Sendrecv(&value, 1, MPI_INT, (rank + 1) % size, 0, &sum, 1, MPI_INT,
                   (rank + size - 1) % size, 0, by_group, SCOMM_STATUS_IGNORE);
    EXPECT_EQ(sum, members_of(by_group)[static_cast<std::size_t>((rank + size - 1) % size)]);
    SCOMM_Comm_free(&by_group);
    SCOMM_Comm_free(&created);
    MPI_Comm_free(&mpi_created);
  } else {  // a caller outside the group gets no communicator (MPI-3.1 6.4.2), talking to nobody
    SCOMM_Comm by_group = SCOMM_COMM_WORLD;
    ASSERT_EQ(SCOMM_Comm_create_group(SCOMM_COMM_WORLD, evens, 3, &by_group), 0);
    EXPECT_EQ(by_group, SCOMM_COMM_NULL);
  }
  SCOMM_Comm none = SCOMM_COMM_WORLD;
  MPI_Comm mpi_none = MPI_COMM_WORLD;
  ASSERT_EQ(SCOMM_Comm_create_group(SCOMM_COMM_WORLD, SCOMM_GROUP_EMPTY, 4, &none), 0);
  MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_EMPTY, 4, &mpi_none);
  EXPECT_EQ(none, SCOMM_COMM_NULL);
  EXPECT_EQ(mpi_none, MPI_COMM_NULL);
  MPI_Group_free(&mpi_evens);
  MPI_Group_free(&mpi_world);
  SCOMM_Group_free(&evens);
  SCOMM_Group_free(&world_group);
}

// Any group every member knows, locally: a random subset in random order, the same everywhere.
TEST_F(CreationTest, CreateFromGroupIsLocalForAnyGroup) {
  std::mt19937 random(99);
  for (int trial = 0; trial < 6; ++trial) {
    std::vector<int> ranks(static_cast<std::size_t>(world_size_));
    std::iota(ranks.begin(), ranks.end(), 0);
    std::shuffle(ranks.begin(), ranks.end(), random);
    ranks.resize(static_cast<std::size_t>(1 + random() % static_cast<unsigned>(world_size_)));
    SCOMM_Group world_group = SCOMM_GROUP_NULL, subset = SCOMM_GROUP_NULL;
    SCOMM_Comm_group(SCOMM_COMM_WORLD, &world_group);
    SCOMM_Group_incl(world_group, static_cast<int>(ranks.size()), ranks.data(), &subset);
    SCOMM_Comm child = SCOMM_COMM_NULL;
    ASSERT_EQ(SCOMM_Comm_create_from_group(SCOMM_COMM_WORLD, subset, &child), 0);
    const auto at = std::find(ranks.begin(), ranks.end(), world_rank_);
    ASSERT_EQ(child != SCOMM_COMM_NULL, at != ranks.end());
    if (child != SCOMM_COMM_NULL) {
      EXPECT_EQ(members_of(child), ranks);
      expect_ring_works(child, trial);
      SCOMM_Comm_free(&child);
    }
    SCOMM_Group_free(&subset);
    SCOMM_Group_free(&world_group);
  }
  expect_only_world_left();
}

TEST_F(CreationTest, ToAndFromMpi) {
  SCOMM_Comm odd_even = SCOMM_COMM_NULL;
  SCOMM_Comm_split(SCOMM_COMM_WORLD, world_rank_ % 2, -world_rank_, &odd_even);
  MPI_Comm mpi = MPI_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_to_MPI(odd_even, &mpi), 0);
  EXPECT_EQ(members_of_mpi(mpi), members_of(odd_even));
  SCOMM_Comm back = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_from_MPI(mpi, &back), 0);
  EXPECT_EQ(members_of(back), members_of(odd_even));
  SCOMM_Comm_free(&back);
  MPI_Comm_free(&mpi);
  SCOMM_Comm_free(&odd_even);
}

TEST_F(CreationTest, NamesAndErrhandlers) {
  char name[SCOMM_MAX_OBJECT_NAME];
  int length = 0;
  SCOMM_Comm_get_name(SCOMM_COMM_WORLD, name, &length);
  EXPECT_STREQ(name, "SCOMM_COMM_WORLD");
  SCOMM_Comm dup = SCOMM_COMM_NULL;
  SCOMM_Comm_dup(SCOMM_COMM_WORLD, &dup);
  SCOMM_Comm_get_name(dup, name, &length);
  EXPECT_EQ(length, 0);
  SCOMM_Comm_set_name(dup, "solver");
  SCOMM_Comm_get_name(dup, name, &length);
  EXPECT_STREQ(name, "solver");
  SCOMM_Errhandler handler = 0;
  SCOMM_Comm_get_errhandler(dup, &handler);
  EXPECT_EQ(handler, SCOMM_ERRORS_ARE_FATAL);
  SCOMM_Comm_free(&dup);
  // The world renamed, also to nothing, reads back as named (as MPI_COMM_WORLD does).
  SCOMM_Comm_set_name(SCOMM_COMM_WORLD, "");
  SCOMM_Comm_get_name(SCOMM_COMM_WORLD, name, &length);
  EXPECT_EQ(length, 0);
  EXPECT_STREQ(name, "");
  SCOMM_Comm_set_name(SCOMM_COMM_WORLD, "everyone");
  SCOMM_Comm_get_name(SCOMM_COMM_WORLD, name, &length);
  EXPECT_STREQ(name, "everyone");
}

}  // namespace
