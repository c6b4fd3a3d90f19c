// The C API's groups against the real MPI library: the same operations on the same random input
// must give the same members in the same order, the same comparisons and the same translations.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "scomm.h"
#include "scomm/group/group.hpp"
#include "smpi_defects.hpp"

extern "C" int scomm_c_header_check(void);  // c_header_check.c, compiled as C

namespace {

TEST(GroupCapiCTest, HeaderCompilesAndRunsAsC) {
  EXPECT_EQ(scomm_c_header_check(), SCOMM_SUCCESS);
}

struct Pair {
  MPI_Group mpi;
  SCOMM_Group scomm;
};

class GroupCapiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm_rank(MPI_COMM_WORLD, &me_);
    MPI_Comm_group(MPI_COMM_WORLD, &world_.mpi);
    ASSERT_EQ(SCOMM_Group_world(size_, &world_.scomm), SCOMM_SUCCESS);
  }
  void TearDown() override {
    for (Pair& p : made_) free(p);
    free(world_);
  }
  void free(Pair& p) {
    MPI_Group_free(&p.mpi);
    EXPECT_EQ(SCOMM_Group_free(&p.scomm), SCOMM_SUCCESS);
    EXPECT_EQ(p.scomm, SCOMM_GROUP_NULL);
  }
  Pair keep(Pair p) {
    made_.push_back(p);
    return p;
  }

  // World ranks of the members, in group order, as MPI and as scomm see them.
  std::vector<int> members_mpi(MPI_Group g) {
    int n = 0;
    MPI_Group_size(g, &n);
    if (n == 0) return {};  // SMPI rejects null rank arrays even when empty
    std::vector<int> ranks(static_cast<std::size_t>(n)), out(ranks.size());
    std::iota(ranks.begin(), ranks.end(), 0);
    MPI_Group_translate_ranks(g, n, ranks.data(), world_.mpi, out.data());
    return out;
  }
  std::vector<int> members_scomm(SCOMM_Group g) {
    int n = 0;
    EXPECT_EQ(SCOMM_Group_size(g, &n), SCOMM_SUCCESS);
    std::vector<int> ranks(static_cast<std::size_t>(n)), out(ranks.size());
    std::iota(ranks.begin(), ranks.end(), 0);
    EXPECT_EQ(SCOMM_Group_translate_ranks(g, n, ranks.data(), world_.scomm, out.data()),
              SCOMM_SUCCESS);
    return out;
  }
  void expect_same(const Pair& p) { EXPECT_EQ(members_scomm(p.scomm), members_mpi(p.mpi)); }
  // The union, intersection and difference of a and b, by MPI and by scomm.
  std::array<Pair, 3> set_operations(const Pair& a, const Pair& b) {
    std::array<Pair, 3> out{};
    MPI_Group_union(a.mpi, b.mpi, &out[0].mpi);
    MPI_Group_intersection(a.mpi, b.mpi, &out[1].mpi);
    MPI_Group_difference(a.mpi, b.mpi, &out[2].mpi);
    EXPECT_EQ(SCOMM_Group_union(a.scomm, b.scomm, &out[0].scomm), SCOMM_SUCCESS);
    EXPECT_EQ(SCOMM_Group_intersection(a.scomm, b.scomm, &out[1].scomm), SCOMM_SUCCESS);
    EXPECT_EQ(SCOMM_Group_difference(a.scomm, b.scomm, &out[2].scomm), SCOMM_SUCCESS);
    return out;
  }
  // The same members in the same order, and the caller's rank in them (of groups that know the
  // caller: not SCOMM_Group_world's).
  void expect_same_with_rank(const Pair& p) {
    expect_same(p);
    int scomm_rank = 0, mpi_rank = 0;
    ASSERT_EQ(SCOMM_Group_rank(p.scomm, &scomm_rank), SCOMM_SUCCESS);
    MPI_Group_rank(p.mpi, &mpi_rank);
    EXPECT_EQ(scomm_rank, mpi_rank);
  }
  // MPI's definition: the members of `a` that are in `b`, in a's order.
  std::vector<int> ordered_intersection(MPI_Group a, MPI_Group b) {
    const std::vector<int> in_b = members_mpi(b);
    std::vector<int> out;
    for (int r : members_mpi(a))
      if (std::find(in_b.begin(), in_b.end(), r) != in_b.end()) out.push_back(r);
    return out;
  }

  std::vector<int> random_ranks(std::mt19937& rng) {
    std::vector<int> ranks(static_cast<std::size_t>(size_));
    std::iota(ranks.begin(), ranks.end(), 0);
    std::shuffle(ranks.begin(), ranks.end(), rng);
    ranks.resize(rng() % (ranks.size() + 1));
    return ranks;
  }
  Pair random_group(std::mt19937& rng) {
    const auto ranks = random_ranks(rng);
    Pair p;
    MPI_Group_incl(world_.mpi, static_cast<int>(ranks.size()), ranks.data(), &p.mpi);
    EXPECT_EQ(
        SCOMM_Group_incl(world_.scomm, static_cast<int>(ranks.size()), ranks.data(), &p.scomm),
        SCOMM_SUCCESS);
    return keep(p);
  }

  int size_ = 0, me_ = 0;
  Pair world_{};
  std::vector<Pair> made_;
};

TEST_F(GroupCapiTest, InclExclMatchMpi) {
  std::mt19937 rng(2024);
  for (int trial = 0; trial < 100; ++trial) {
    const auto ranks = random_ranks(rng);
    const int n = static_cast<int>(ranks.size());
    Pair in, ex;
    MPI_Group_incl(world_.mpi, n, ranks.data(), &in.mpi);
    MPI_Group_excl(world_.mpi, n, ranks.data(), &ex.mpi);
    ASSERT_EQ(SCOMM_Group_incl(world_.scomm, n, ranks.data(), &in.scomm), SCOMM_SUCCESS);
    ASSERT_EQ(SCOMM_Group_excl(world_.scomm, n, ranks.data(), &ex.scomm), SCOMM_SUCCESS);
    expect_same(keep(in));
    expect_same(keep(ex));
  }
}

TEST_F(GroupCapiTest, RangesMatchMpiIncludingNegativeStrides) {
  std::mt19937 rng(99);
  for (int trial = 0; trial < 100; ++trial) {
    int first = static_cast<int>(rng() % size_), last = static_cast<int>(rng() % size_);
    const int stride = (last >= first ? 1 : -1) * static_cast<int>(1 + rng() % 3);
    // `last` bounds the range: a positive stride's may lie up to stride - 1 past the last rank
    // computed, even past the group (Open MPI refuses it beyond the group's size, and a negative
    // stride's below 0, as does MPICH).
    const int step = std::abs(stride);
    const int bound = smpi_defect::kRangeLastIsARank ? size_ - 1 : size_;
    if (stride > 0)
      last = std::min(bound, first + (last - first) / step * step + static_cast<int>(rng() % step));
    int range[1][3] = {{first, last, stride}};
    Pair in, ex;
    MPI_Group_range_incl(world_.mpi, 1, range, &in.mpi);
    MPI_Group_range_excl(world_.mpi, 1, range, &ex.mpi);
    ASSERT_EQ(SCOMM_Group_range_incl(world_.scomm, 1, range, &in.scomm), SCOMM_SUCCESS);
    ASSERT_EQ(SCOMM_Group_range_excl(world_.scomm, 1, range, &ex.scomm), SCOMM_SUCCESS);
    expect_same(keep(in));
    expect_same(keep(ex));
  }
}

TEST_F(GroupCapiTest, SetOperationsCompareAndTranslateMatchMpi) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 100; ++trial) {
    const Pair a = random_group(rng), b = random_group(rng);
    auto [u, i, d] = set_operations(a, b);
    expect_same(keep(u));
    if (smpi_defect::kIntersectionOrder)
      EXPECT_EQ(members_scomm(keep(i).scomm), ordered_intersection(a.mpi, b.mpi));
    else
      expect_same(keep(i));
    expect_same(keep(d));
    int mpi_result = 0, scomm_result = 0;
    MPI_Group_compare(a.mpi, b.mpi, &mpi_result);
    ASSERT_EQ(SCOMM_Group_compare(a.scomm, b.scomm, &scomm_result), SCOMM_SUCCESS);
    EXPECT_EQ(scomm_result, mpi_result);
    const auto a_members = members_mpi(a.mpi);
    std::vector<int> from(a_members.size()), to_mpi(from.size()), to_scomm(from.size());
    std::iota(from.begin(), from.end(), 0);
    if (!from.empty()) from.back() = MPI_PROC_NULL;
    const int n = static_cast<int>(from.size());
    if (n > 0) MPI_Group_translate_ranks(a.mpi, n, from.data(), b.mpi, to_mpi.data());
    ASSERT_EQ(SCOMM_Group_translate_ranks(a.scomm, n, from.data(), b.scomm, to_scomm.data()),
              SCOMM_SUCCESS);
    // MPI-3.1 section 6.3.1: MPI_PROC_NULL translates to MPI_PROC_NULL. Debian's Open MPI 4.1
    // answers MPI_UNDEFINED there, so that entry is checked against the standard instead.
    if (!from.empty()) {
      EXPECT_EQ(to_scomm.back(), MPI_PROC_NULL);
      to_scomm.back() = to_mpi.back();
    }
    EXPECT_EQ(to_scomm, to_mpi);
  }
}

// The empty group on either side: it knows no caller, and a union with it must still know the
// caller's rank in the other group (it once answered SCOMM_UNDEFINED for union(empty, world)).
TEST_F(GroupCapiTest, SetOperationsWithTheEmptyGroupMatchMpi) {
  ASSERT_EQ(SCOMM_Init(), SCOMM_SUCCESS);  // for a world group that knows the caller
  const Pair empty{MPI_GROUP_EMPTY, SCOMM_GROUP_EMPTY};
  Pair world{world_.mpi, SCOMM_GROUP_NULL};
  ASSERT_EQ(SCOMM_Comm_group(SCOMM_COMM_WORLD, &world.scomm), SCOMM_SUCCESS);
  for (const auto& [a, b] : {std::pair{empty, world}, std::pair{world, empty}, {empty, empty}}) {
    auto [u, i, d] = set_operations(a, b);
    for (Pair* result : {&u, &i, &d}) {
      expect_same_with_rank(*result);
      if (result->mpi != MPI_GROUP_EMPTY) MPI_Group_free(&result->mpi);  // MPICH keeps it
      EXPECT_EQ(SCOMM_Group_free(&result->scomm), SCOMM_SUCCESS);
    }
  }
  EXPECT_EQ(SCOMM_Group_free(&world.scomm), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
}

TEST_F(GroupCapiTest, CallerRankMatchesMpi) {
  std::mt19937 rng(5);
  const auto world = scomm::group::Group::world(size_, me_);
  for (int trial = 0; trial < 50; ++trial) {
    const auto ranks = random_ranks(rng);
    MPI_Group g;
    MPI_Group_incl(world_.mpi, static_cast<int>(ranks.size()), ranks.data(), &g);
    int mpi_rank = 0;
    MPI_Group_rank(g, &mpi_rank);
    // The group layer's own "not a member" (MPI_UNDEFINED differs between MPIs: SMPI's is -333).
    if (mpi_rank == MPI_UNDEFINED) mpi_rank = scomm::group::kUndefined;
    EXPECT_EQ(scomm::group::incl(world, ranks).rank(), mpi_rank);
    MPI_Group_free(&g);
  }
}

// Bad input: the right error class and a readable message, never a crash.
class GroupCapiErrorTest : public GroupCapiTest {
 protected:
  // The code has the expected class, and its text names the class, the call and the detail.
  void expect_error(int code, int expected_class, const char* call = nullptr) {
    int error_class = -1;
    ASSERT_EQ(SCOMM_Error_class(code, &error_class), SCOMM_SUCCESS);
    EXPECT_EQ(error_class, expected_class);
    char text[SCOMM_MAX_ERROR_STRING];
    int length = 0;
    ASSERT_EQ(SCOMM_Error_string(code, text, &length), SCOMM_SUCCESS);
    EXPECT_EQ(length, static_cast<int>(std::strlen(text)));
    EXPECT_GT(length, 20) << text;
    EXPECT_EQ(std::string(text).rfind(class_name(expected_class) + ": ", 0), 0u) << text;
    if (call != nullptr) {
      EXPECT_NE(std::string(text).find(call), std::string::npos) << text;
    }
  }
  static std::string class_name(int error_class) {
    switch (error_class) {
      case SCOMM_ERR_GROUP:
        return "SCOMM_ERR_GROUP";
      case SCOMM_ERR_RANK:
        return "SCOMM_ERR_RANK";
      case SCOMM_ERR_ARG:
        return "SCOMM_ERR_ARG";
      default:
        return "unexpected class " + std::to_string(error_class);
    }
  }
};

TEST_F(GroupCapiErrorTest, InvalidRanksAndDuplicates) {
  SCOMM_Group g = SCOMM_GROUP_NULL;
  const int out_of_range[] = {0, size_};
  const int duplicate[] = {0, 0};
  expect_error(SCOMM_Group_incl(world_.scomm, 2, out_of_range, &g), SCOMM_ERR_RANK);
  expect_error(SCOMM_Group_incl(world_.scomm, 2, duplicate, &g), SCOMM_ERR_RANK);
  expect_error(SCOMM_Group_excl(world_.scomm, 2, duplicate, &g), SCOMM_ERR_RANK);
  expect_error(SCOMM_Group_incl(world_.scomm, -1, duplicate, &g), SCOMM_ERR_ARG);
  int translated[2];
  expect_error(SCOMM_Group_translate_ranks(world_.scomm, 2, out_of_range, world_.scomm, translated),
               SCOMM_ERR_RANK);
  EXPECT_EQ(g, SCOMM_GROUP_NULL);
}

TEST_F(GroupCapiErrorTest, BadRanges) {
  SCOMM_Group g = SCOMM_GROUP_NULL;
  int zero_stride[1][3] = {{0, 0, 0}};
  int past_end[1][3] = {{0, size_, 1}};
  int runaway[1][3] = {{size_ - 1, 0, 1}};
  expect_error(SCOMM_Group_range_incl(world_.scomm, 1, zero_stride, &g), SCOMM_ERR_ARG);
  expect_error(SCOMM_Group_range_incl(world_.scomm, 1, past_end, &g), SCOMM_ERR_RANK);
  if (size_ > 1) expect_error(SCOMM_Group_range_excl(world_.scomm, 1, runaway, &g), SCOMM_ERR_ARG);
  int negative_first[1][3] = {{-1, 0, 1}};
  expect_error(SCOMM_Group_range_excl(world_.scomm, 1, negative_first, &g), SCOMM_ERR_RANK,
               "SCOMM_Group_range_excl");
  int overlapping[2][3] = {{0, 0, 1}, {0, 0, 1}};
  expect_error(SCOMM_Group_range_incl(world_.scomm, 2, overlapping, &g), SCOMM_ERR_RANK,
               "SCOMM_Group_range_incl");
  expect_error(SCOMM_Group_range_incl(world_.scomm, -1, zero_stride, &g), SCOMM_ERR_ARG);
  expect_error(SCOMM_Group_range_excl(world_.scomm, 1, nullptr, &g), SCOMM_ERR_ARG);
  EXPECT_EQ(g, SCOMM_GROUP_NULL);
}

TEST_F(GroupCapiErrorTest, MessagesNameTheCallAndTheValue) {
  SCOMM_Group five = SCOMM_GROUP_NULL, g = SCOMM_GROUP_NULL;
  ASSERT_EQ(SCOMM_Group_world(5, &five), SCOMM_SUCCESS);
  const int seven[] = {7};
  const int code = SCOMM_Group_incl(five, 1, seven, &g);
  expect_error(code, SCOMM_ERR_RANK, "SCOMM_Group_incl");
  char text[SCOMM_MAX_ERROR_STRING];
  int length = 0;
  ASSERT_EQ(SCOMM_Error_string(code, text, &length), SCOMM_SUCCESS);
  EXPECT_NE(std::string(text).find('7'), std::string::npos) << text;
  EXPECT_NE(std::string(text).find('5'), std::string::npos) << text;
  // A bare class is a code too; unknown codes are an argument error (as in Open MPI), not a crash.
  int error_class = -1;
  EXPECT_EQ(SCOMM_Error_class(SCOMM_ERR_RANK, &error_class), SCOMM_SUCCESS);
  EXPECT_EQ(error_class, SCOMM_ERR_RANK);
  ASSERT_EQ(SCOMM_Error_string(SCOMM_ERR_RANK, text, &length), SCOMM_SUCCESS);
  EXPECT_STREQ(text, "SCOMM_ERR_RANK: invalid rank");
  expect_error(SCOMM_Error_class(-5, &error_class), SCOMM_ERR_ARG, "SCOMM_Error_class");
  expect_error(SCOMM_Error_class(SCOMM_ERR_LASTCODE + 1, &error_class), SCOMM_ERR_ARG);
  expect_error(SCOMM_Error_class(code, nullptr), SCOMM_ERR_ARG);
  expect_error(SCOMM_Error_string(code, nullptr, &length), SCOMM_ERR_ARG);
  expect_error(SCOMM_Error_string(code, text, nullptr), SCOMM_ERR_ARG);
  expect_error(SCOMM_Error_string(-5, text, &length), SCOMM_ERR_ARG, "SCOMM_Error_string");
  expect_error(SCOMM_Error_string(SCOMM_ERR_LASTCODE + 1, text, &length), SCOMM_ERR_ARG);
  // Codes scomm never issued: a class with no slot, a slot past the ring's, class 0 with more.
  for (const int made_up : {1 << 8 | 1 << 15, 100 << 8 | SCOMM_ERR_RANK, 256, 0x7fffff00}) {
    SCOPED_TRACE(made_up);
    expect_error(SCOMM_Error_class(made_up, &error_class), SCOMM_ERR_ARG);
    expect_error(SCOMM_Error_string(made_up, text, &length), SCOMM_ERR_ARG);
  }
  // Older messages leave the ring; their codes then give the class's text, never a newer message.
  const int nine[] = {9};
  for (int i = 0; i < 100; ++i) SCOMM_Group_incl(five, 1, nine, &g);
  ASSERT_EQ(SCOMM_Error_string(code, text, &length), SCOMM_SUCCESS);
  EXPECT_STREQ(text, "SCOMM_ERR_RANK: invalid rank");
  ASSERT_EQ(SCOMM_Error_class(code, &error_class), SCOMM_SUCCESS);
  EXPECT_EQ(error_class, SCOMM_ERR_RANK);
  EXPECT_EQ(SCOMM_Group_free(&five), SCOMM_SUCCESS);
}

TEST_F(GroupCapiErrorTest, NullPointersAndNegativeCounts) {
  SCOMM_Group g = SCOMM_GROUP_NULL;
  int out[1] = {0};
  const int zero[] = {0};
  expect_error(SCOMM_Group_incl(world_.scomm, 1, nullptr, &g), SCOMM_ERR_ARG, "SCOMM_Group_incl");
  expect_error(SCOMM_Group_incl(world_.scomm, 1, zero, nullptr), SCOMM_ERR_ARG);
  expect_error(SCOMM_Group_excl(world_.scomm, -2, zero, &g), SCOMM_ERR_ARG, "SCOMM_Group_excl");
  expect_error(SCOMM_Group_excl(world_.scomm, 1, nullptr, &g), SCOMM_ERR_ARG);
  expect_error(SCOMM_Group_translate_ranks(world_.scomm, -1, zero, world_.scomm, out),
               SCOMM_ERR_ARG);
  expect_error(SCOMM_Group_translate_ranks(world_.scomm, 1, zero, world_.scomm, nullptr),
               SCOMM_ERR_ARG, "SCOMM_Group_translate_ranks");
  expect_error(SCOMM_Group_translate_ranks(world_.scomm, 1, nullptr, world_.scomm, out),
               SCOMM_ERR_ARG);
  expect_error(SCOMM_Group_translate_ranks(world_.scomm, 1, zero, SCOMM_GROUP_NULL, out),
               SCOMM_ERR_GROUP);
  int result = 0;
  expect_error(SCOMM_Group_compare(world_.scomm, world_.scomm, nullptr), SCOMM_ERR_ARG);
  expect_error(SCOMM_Group_compare(SCOMM_GROUP_NULL, world_.scomm, &result), SCOMM_ERR_GROUP);
  expect_error(SCOMM_Group_union(world_.scomm, SCOMM_GROUP_NULL, &g), SCOMM_ERR_GROUP,
               "SCOMM_Group_union");
  expect_error(SCOMM_Group_intersection(world_.scomm, world_.scomm, nullptr), SCOMM_ERR_ARG);
  expect_error(SCOMM_Group_difference(-3, world_.scomm, &g), SCOMM_ERR_GROUP);
  expect_error(SCOMM_Group_rank(world_.scomm, nullptr), SCOMM_ERR_ARG);
  expect_error(SCOMM_Group_free(nullptr), SCOMM_ERR_ARG, "SCOMM_Group_free");
  expect_error(SCOMM_Group_world(3, nullptr), SCOMM_ERR_ARG);
  size_t bytes = 0;
  expect_error(SCOMM_Group_memory(world_.scomm, nullptr), SCOMM_ERR_ARG);
  expect_error(SCOMM_Group_memory(SCOMM_GROUP_NULL, &bytes), SCOMM_ERR_GROUP);
  char name[SCOMM_MAX_OBJECT_NAME];
  int length = 0;
  expect_error(SCOMM_Group_representation(world_.scomm, nullptr, &length), SCOMM_ERR_ARG);
  expect_error(SCOMM_Group_representation(world_.scomm, name, nullptr), SCOMM_ERR_ARG);
  // n = 0 needs no arrays at all.
  ASSERT_EQ(SCOMM_Group_translate_ranks(world_.scomm, 0, nullptr, world_.scomm, nullptr),
            SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Group_incl(world_.scomm, 0, nullptr, &g), SCOMM_SUCCESS);
  int n = -1;
  ASSERT_EQ(SCOMM_Group_size(g, &n), SCOMM_SUCCESS);
  EXPECT_EQ(n, 0);
  EXPECT_EQ(SCOMM_Group_compare(g, SCOMM_GROUP_EMPTY, &result), SCOMM_SUCCESS);
  EXPECT_EQ(result, SCOMM_IDENT);
  EXPECT_EQ(SCOMM_Group_free(&g), SCOMM_SUCCESS);
}

TEST_F(GroupCapiErrorTest, ReusedSlotDoesNotReviveAStaleHandle) {
  SCOMM_Group first = SCOMM_GROUP_NULL, second = SCOMM_GROUP_NULL;
  ASSERT_EQ(SCOMM_Group_world(3, &first), SCOMM_SUCCESS);
  const SCOMM_Group stale = first;
  ASSERT_EQ(SCOMM_Group_free(&first), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Group_world(4, &second), SCOMM_SUCCESS);  // takes the freed slot
  EXPECT_NE(second, stale);
  int n = 0;
  expect_error(SCOMM_Group_size(stale, &n), SCOMM_ERR_GROUP, "SCOMM_Group_size");
  ASSERT_EQ(SCOMM_Group_size(second, &n), SCOMM_SUCCESS);
  EXPECT_EQ(n, 4);
  EXPECT_EQ(SCOMM_Group_free(&second), SCOMM_SUCCESS);
}

TEST_F(GroupCapiErrorTest, FreedNullAndStaleHandles) {
  SCOMM_Group g = SCOMM_GROUP_NULL, stale = SCOMM_GROUP_NULL;
  ASSERT_EQ(SCOMM_Group_world(3, &g), SCOMM_SUCCESS);
  stale = g;
  ASSERT_EQ(SCOMM_Group_free(&g), SCOMM_SUCCESS);
  int n = 0;
  expect_error(SCOMM_Group_size(stale, &n), SCOMM_ERR_GROUP);
  expect_error(SCOMM_Group_free(&stale), SCOMM_ERR_GROUP);
  expect_error(SCOMM_Group_size(SCOMM_GROUP_NULL, &n), SCOMM_ERR_GROUP);
  expect_error(SCOMM_Group_size(123456, &n), SCOMM_ERR_GROUP);
  expect_error(SCOMM_Group_size(world_.scomm, nullptr), SCOMM_ERR_ARG);
  expect_error(SCOMM_Group_world(-1, &g), SCOMM_ERR_ARG);
  expect_error(SCOMM_Set_map_strategy(7), SCOMM_ERR_ARG);
  SCOMM_Group empty = SCOMM_GROUP_EMPTY;
  EXPECT_EQ(SCOMM_Group_size(empty, &n), SCOMM_SUCCESS);
  EXPECT_EQ(n, 0);
  EXPECT_EQ(SCOMM_Group_free(&empty), SCOMM_SUCCESS);
}

TEST_F(GroupCapiTest, RepresentationMemoryAndStrategy) {
  SCOMM_Group big = SCOMM_GROUP_NULL, evens = SCOMM_GROUP_NULL;
  ASSERT_EQ(SCOMM_Group_world(786432, &big), SCOMM_SUCCESS);
  int evens_range[1][3] = {{0, 786431, 2}};
  ASSERT_EQ(SCOMM_Group_range_incl(big, 1, evens_range, &evens), SCOMM_SUCCESS);
  char name[SCOMM_MAX_OBJECT_NAME];
  int length = 0;
  ASSERT_EQ(SCOMM_Group_representation(evens, name, &length), SCOMM_SUCCESS);
  EXPECT_STREQ(name, "stride");
  size_t bytes = 0;
  ASSERT_EQ(SCOMM_Group_memory(evens, &bytes), SCOMM_SUCCESS);
  EXPECT_LE(bytes, 64u);
  for (int strategy : {SCOMM_MAP_SPACE, SCOMM_MAP_TIME, SCOMM_MAP_HYBRID})
    EXPECT_EQ(SCOMM_Set_map_strategy(strategy), SCOMM_SUCCESS);
  SCOMM_Group_free(&evens);
  SCOMM_Group_free(&big);
}

// Virtual worlds of 10..1000 ranks, far larger than the real one: random chains of operations on
// the C API against a dense model of MPI's rules (a group is its world ranks in group order).
// Chains compose children with parents several generations deep, under every map strategy.
class VirtualWorldTest : public ::testing::Test {
 protected:
  using Members = std::vector<int>;
  struct Live {
    SCOMM_Group handle;
    Members members;
  };

  void TearDown() override {
    release();
    EXPECT_EQ(SCOMM_Set_map_strategy(SCOMM_MAP_HYBRID), SCOMM_SUCCESS);  // the default
  }

  // Frees every group of the chain; all must still be live.
  void release() {
    for (Live& g : pool_) EXPECT_EQ(SCOMM_Group_free(&g.handle), SCOMM_SUCCESS);
    pool_.clear();
    if (world_ != SCOMM_GROUP_NULL) {
      EXPECT_EQ(SCOMM_Group_free(&world_), SCOMM_SUCCESS);
    }
  }

  void run_chain(int world_size, int strategy, unsigned seed) {
    ASSERT_EQ(SCOMM_Set_map_strategy(strategy), SCOMM_SUCCESS);
    ASSERT_EQ(SCOMM_Group_world(world_size, &world_), SCOMM_SUCCESS);
    world_size_ = world_size;
    Members all(static_cast<std::size_t>(world_size));
    std::iota(all.begin(), all.end(), 0);
    // The chain starts from a copy, so its groups can be freed in any order before the world.
    int everyone[1][3] = {{0, world_size - 1, 1}};
    SCOMM_Group copy = SCOMM_GROUP_NULL;
    ASSERT_EQ(SCOMM_Group_range_incl(world_, 1, everyone, &copy), SCOMM_SUCCESS);
    pool_.push_back({copy, all});
    std::mt19937 rng(seed);
    for (int step = 0; step < 60 && !HasFatalFailure(); ++step) {
      SCOMM_Group made = SCOMM_GROUP_NULL;
      Members expected;
      const Live& a = pick(rng);
      const Live& b = pick(rng);
      const int op = static_cast<int>(rng() % 7);
      SCOPED_TRACE("world " + std::to_string(world_size) + ", step " + std::to_string(step) +
                   ", operation " + std::to_string(op));
      ASSERT_EQ(apply(op, a, b, rng, made, expected), SCOMM_SUCCESS);
      check_group(made, expected);
      check_compare_and_translate(a, b, rng);
      add({made, expected});
    }
  }

 private:
  const Live& pick(std::mt19937& rng) const { return pool_[rng() % pool_.size()]; }

  // Keeps at most 8 non-empty groups alive besides the copy of the world; the oldest go first,
  // often parents of live children.
  void add(Live g) {
    if (g.members.empty()) {  // checked already; as an operand it would only breed more empties
      EXPECT_EQ(SCOMM_Group_free(&g.handle), SCOMM_SUCCESS);
      return;
    }
    pool_.push_back(std::move(g));
    if (pool_.size() > 9) {
      EXPECT_EQ(SCOMM_Group_free(&pool_[1].handle), SCOMM_SUCCESS);
      pool_.erase(pool_.begin() + 1);
    }
  }

  int apply(int op, const Live& a, const Live& b, std::mt19937& rng, SCOMM_Group& made,
            Members& expected) {
    const int n = static_cast<int>(a.members.size());
    switch (op) {
      case 0: {
        const Members ranks = random_ranks(n, large_count(n, rng), rng);
        expected = pick_ranks(a.members, ranks);
        return SCOMM_Group_incl(a.handle, size_of(ranks), ranks.data(), &made);
      }
      case 1: {
        const Members ranks = random_ranks(n, small_count(n, rng), rng);
        expected = without(a.members, ranks);
        return SCOMM_Group_excl(a.handle, size_of(ranks), ranks.data(), &made);
      }
      case 2:
      case 3: {
        std::vector<std::array<int, 3>> ranges = random_ranges(n, rng);
        const Members ranks = expand(ranges);
        auto raw = std::make_unique<int[][3]>(ranges.size());
        for (std::size_t i = 0; i < ranges.size(); ++i)
          std::copy(ranges[i].begin(), ranges[i].end(), raw[i]);
        if (op == 2) {
          expected = pick_ranks(a.members, ranks);
          return SCOMM_Group_range_incl(a.handle, size_of(ranges), raw.get(), &made);
        }
        expected = without(a.members, ranks);
        return SCOMM_Group_range_excl(a.handle, size_of(ranges), raw.get(), &made);
      }
      case 4:
        expected = a.members;
        for (int w : b.members)
          if (!contains(a.members, w)) expected.push_back(w);
        return SCOMM_Group_union(a.handle, b.handle, &made);
      case 5:
        for (int w : a.members)
          if (contains(b.members, w)) expected.push_back(w);
        return SCOMM_Group_intersection(a.handle, b.handle, &made);
      default:
        for (int w : a.members)
          if (!contains(b.members, w)) expected.push_back(w);
        return SCOMM_Group_difference(a.handle, b.handle, &made);
    }
  }

  // Size, members in order (rank -> world), the inverse (world -> rank), rank and memory.
  void check_group(SCOMM_Group g, const Members& expected) {
    int size = -1, rank = 0;
    ASSERT_EQ(SCOMM_Group_size(g, &size), SCOMM_SUCCESS);
    ASSERT_EQ(size, size_of(expected));
    Members ranks(expected.size()), worlds(expected.size());
    std::iota(ranks.begin(), ranks.end(), 0);
    ASSERT_EQ(SCOMM_Group_translate_ranks(g, size, ranks.data(), world_, worlds.data()),
              SCOMM_SUCCESS);
    EXPECT_EQ(worlds, expected);
    Members all(static_cast<std::size_t>(world_size_)), back(all.size());
    std::iota(all.begin(), all.end(), 0);
    ASSERT_EQ(SCOMM_Group_translate_ranks(world_, world_size_, all.data(), g, back.data()),
              SCOMM_SUCCESS);
    Members inverse(all.size(), SCOMM_UNDEFINED);
    for (int r = 0; r < size; ++r) inverse[static_cast<std::size_t>(expected[r])] = r;
    EXPECT_EQ(back, inverse);
    ASSERT_EQ(SCOMM_Group_rank(g, &rank), SCOMM_SUCCESS);
    EXPECT_EQ(rank, SCOMM_UNDEFINED);  // nobody is a member of a virtual world
    size_t bytes = 0;
    ASSERT_EQ(SCOMM_Group_memory(g, &bytes), SCOMM_SUCCESS);
    char name[SCOMM_MAX_OBJECT_NAME];
    int length = 0;
    ASSERT_EQ(SCOMM_Group_representation(g, name, &length), SCOMM_SUCCESS);
    EXPECT_GT(length, 0);
  }

  void check_compare_and_translate(const Live& a, const Live& b, std::mt19937& rng) {
    int result = -1;
    ASSERT_EQ(SCOMM_Group_compare(a.handle, b.handle, &result), SCOMM_SUCCESS);
    EXPECT_EQ(result, expected_comparison(a.members, b.members));
    const int n = size_of(a.members);
    Members from = random_ranks(n, small_count(n, rng), rng), to(from.size() + 1);
    from.push_back(MPI_PROC_NULL);
    ASSERT_EQ(
        SCOMM_Group_translate_ranks(a.handle, size_of(from), from.data(), b.handle, to.data()),
        SCOMM_SUCCESS);
    for (std::size_t i = 0; i + 1 < from.size(); ++i)
      EXPECT_EQ(to[i], index_of(b.members, a.members[static_cast<std::size_t>(from[i])]));
    EXPECT_EQ(to.back(), MPI_PROC_NULL);
  }

  static int expected_comparison(const Members& a, const Members& b) {
    if (a == b) return MPI_IDENT;
    Members sa = a, sb = b;
    std::sort(sa.begin(), sa.end());
    std::sort(sb.begin(), sb.end());
    return sa == sb ? MPI_SIMILAR : MPI_UNEQUAL;
  }

  // Distinct ranks of [0, n), about `count` of them: a progression, a sorted subset or a
  // shuffled one (a permutation when count = n).
  static Members random_ranks(int n, int count, std::mt19937& rng) {
    Members ranks(static_cast<std::size_t>(n));
    std::iota(ranks.begin(), ranks.end(), 0);
    switch (rng() % 3) {
      case 0: {
        const int stride = n == 0 ? 1 : std::max(1, n / std::max(count, 1));
        Members every;
        for (int r = static_cast<int>(rng() % (stride + 1)); r < n; r += stride) every.push_back(r);
        return every;
      }
      case 1:
        std::shuffle(ranks.begin(), ranks.end(), rng);
        ranks.resize(static_cast<std::size_t>(count));
        std::sort(ranks.begin(), ranks.end());
        return ranks;
      default:
        std::shuffle(ranks.begin(), ranks.end(), rng);
        ranks.resize(static_cast<std::size_t>(count));
        return ranks;
    }
  }
  // Mostly large, so that chains stay big enough to reach the compact representations.
  static int large_count(int n, std::mt19937& rng) {
    return static_cast<int>(rng() % 4 == 0 ? rng() % (n + 1) : n - rng() % (n / 4 + 1));
  }
  static int small_count(int n, std::mt19937& rng) { return static_cast<int>(rng() % (n / 4 + 1)); }

  // Up to three MPI range triplets of [0, n) with strides of either sign, no rank twice.
  static std::vector<std::array<int, 3>> random_ranges(int n, std::mt19937& rng) {
    std::vector<std::array<int, 3>> ranges;
    std::vector<bool> used(static_cast<std::size_t>(n), false);
    const int wanted = n == 0 ? 0 : 1 + static_cast<int>(rng() % 3);
    for (int tries = 0; size_of(ranges) < wanted && tries < 20; ++tries) {
      const int stride = (rng() % 2 ? 1 : -1) * (1 + static_cast<int>(rng() % 5));
      const int first = static_cast<int>(rng() % n);
      const int room = stride > 0 ? (n - 1 - first) / stride : first / -stride;
      const int last = first + stride * static_cast<int>(rng() % (room + 1));
      const std::array<int, 3> range{first, last, stride};
      const Members ranks = expand({range});
      if (std::any_of(ranks.begin(), ranks.end(),
                      [&](int r) { return used[static_cast<std::size_t>(r)]; }))
        continue;
      for (int r : ranks) used[static_cast<std::size_t>(r)] = true;
      ranges.push_back(range);
    }
    return ranges;
  }

  static Members expand(const std::vector<std::array<int, 3>>& ranges) {
    Members ranks;
    for (const auto& [first, last, stride] : ranges)
      for (int r = first; stride > 0 ? r <= last : r >= last; r += stride) ranks.push_back(r);
    return ranks;
  }
  static Members pick_ranks(const Members& members, const Members& ranks) {
    Members out;
    for (int r : ranks) out.push_back(members[static_cast<std::size_t>(r)]);
    return out;
  }
  static Members without(const Members& members, const Members& ranks) {
    Members out;
    for (int r = 0; r < size_of(members); ++r)
      if (!contains(ranks, r)) out.push_back(members[static_cast<std::size_t>(r)]);
    return out;
  }
  static bool contains(const Members& v, int x) { return index_of(v, x) != SCOMM_UNDEFINED; }
  static int index_of(const Members& v, int x) {
    const auto it = std::find(v.begin(), v.end(), x);
    return it == v.end() ? SCOMM_UNDEFINED : static_cast<int>(it - v.begin());
  }
  template <typename T>
  static int size_of(const std::vector<T>& v) {
    return static_cast<int>(v.size());
  }

  SCOMM_Group world_ = SCOMM_GROUP_NULL;
  int world_size_ = 0;
  std::deque<Live> pool_;
};

TEST_F(VirtualWorldTest, ChainsMatchTheModelUnderEveryStrategy) {
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const int worlds[] = {10, 37, 128, 1000};
  const int strategies[] = {SCOMM_MAP_SPACE, SCOMM_MAP_TIME, SCOMM_MAP_HYBRID};
  // Every rank runs its own fixed seeds, so more ranks cover more inputs.
  unsigned seed = 1000u * static_cast<unsigned>(me);
  for (int w : worlds)
    for (int strategy : strategies) {
      run_chain(w, strategy, ++seed);
      release();
      if (HasFailure()) return;
    }
}

}  // namespace
