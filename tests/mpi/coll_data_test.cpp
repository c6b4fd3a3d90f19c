// Gather, scatter, allgather, all-to-all and their v-forms against MPI's own on the same members,
// for every algorithm, root, size and in-place form; send and receive types that differ (and a
// broadcast whose root's type differs from the others'), a strided type; counts with zeros and
// displacements with gaps; blocking and nonblocking forms, several in flight; bad input.
#include <sys/mman.h>
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <functional>
#include <numeric>

#include "coll_test_support.hpp"
#include "scomm/coll/type_order.hpp"
#include "scomm/context/tag_layout.hpp"
#include "smpi_defects.hpp"

namespace {

// How a collective runs: MPI's on the MPI twin, scomm's blocking or scomm's nonblocking + wait.
enum class Mode { kMpi, kBlocking, kNonblocking };

int wait_for(int rc, SCOMM_Request& request) {
  return rc == SCOMM_SUCCESS ? SCOMM_Wait(&request, SCOMM_STATUS_IGNORE) : rc;
}

// Calls MPI_<Name>, SCOMM_<Name> or SCOMM_<IName> + SCOMM_Wait with the same arguments, by `mode`
// (in scope: `mode`, `pair`).
#define RUN(Name, IName, ...)                                                       \
  [&] {                                                                             \
    SCOMM_Request request = SCOMM_REQUEST_NULL;                                     \
    switch (mode) {                                                                 \
      case Mode::kMpi:                                                              \
        return MPI_##Name(__VA_ARGS__, pair.mpi);                                   \
      case Mode::kBlocking:                                                         \
        return SCOMM_##Name(__VA_ARGS__, pair.scomm);                               \
      case Mode::kNonblocking:                                                      \
        return wait_for(SCOMM_##IName(__VA_ARGS__, pair.scomm, &request), request); \
    }                                                                               \
    return -1;                                                                      \
  }()

using Collective = std::function<int(int* recv, Mode mode)>;

// Runs `run` with MPI, then with scomm (blocking and nonblocking), each on a copy of `init` as
// its receive buffer, and expects scomm's buffers to equal MPI's, gaps included.
void expect_like_mpi(const std::vector<int>& init, const Collective& run, const std::string& what) {
  std::vector<int> expected = init;
  ASSERT_EQ(run(expected.data(), Mode::kMpi), MPI_SUCCESS) << what;
  for (const Mode mode : {Mode::kBlocking, Mode::kNonblocking}) {
    std::vector<int> got = init;
    ASSERT_EQ(run(got.data(), mode), SCOMM_SUCCESS) << what;
    ASSERT_EQ(got, expected) << what << (mode == Mode::kBlocking ? " blocking" : " nonblocking");
  }
}

std::string describe(const CommPair& pair, int count, int root, bool in_place) {
  return pair.name + " count " + std::to_string(count) + " root " + std::to_string(root) +
         (in_place ? " in place" : "");
}

std::vector<int> data_counts() {
  return test_counts();
}  // 0, 1, 7, 1000, 40000

// Restarts scomm with SCOMM_COLL_...=`algorithm` (read by SCOMM_Init).
void reinit_with(const char* variable, const std::string& algorithm) {
  ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
  setenv(variable, algorithm.c_str(), 1);
  ASSERT_EQ(SCOMM_Init(), SCOMM_SUCCESS);
  unsetenv(variable);
}

// Block counts per rank, and displacements in rank order with a gap of `gap` elements after each
// block (the receive buffer's size is the total).
struct Vector {
  std::vector<int> counts, displs;
  int total = 0;
};
Vector laid_out(std::vector<int> counts, int gap) {
  Vector v;
  v.counts = std::move(counts);
  for (const int count : v.counts) {
    v.displs.push_back(v.total);
    v.total += count + gap;
  }
  return v;
}
// Counts with zeros, varied by `salt`.
Vector vector_layout(int size, int salt, int gap) {
  std::vector<int> counts;
  for (int r = 0; r < size; ++r)
    counts.push_back((r * 3 + salt) % 5 == 0 ? 0 : (r * 7 + salt) % 13);
  return laid_out(std::move(counts), gap);
}

// ----- gather, scatter

class GatherTest : public CollTest {
  const char* variable() const override { return "SCOMM_COLL_GATHER"; }
};

TEST_P(GatherTest, EqualsMpiGatherForEveryRootCountAndInPlace) {
  for (const CommPair& pair : pairs_) {
    const int size = size_of(pair.mpi), rank = rank_of(pair.mpi);
    for (const int count : data_counts())
      for (const int root : test_roots(size))
        for (const bool in_place : {false, true}) {
          const auto mine = pattern(rank, static_cast<std::size_t>(count), root);
          std::vector<int> init(static_cast<std::size_t>(size * count), -1);
          const void* send = mine.data();
          if (in_place && rank == root) {
            std::copy(mine.begin(), mine.end(), init.begin() + root * count);
            send = MPI_IN_PLACE;
          }
          expect_like_mpi(
              init,
              [&](int* recv, Mode mode) {
                return RUN(Gather, Igather, send, count, MPI_INT, recv, count, MPI_INT, root);
              },
              describe(pair, count, root, in_place));
        }
  }
}

TEST_P(GatherTest, GathervWithZeroCountsAndGaps) {
  for (const CommPair& pair : pairs_) {
    const int size = size_of(pair.mpi), rank = rank_of(pair.mpi);
    for (const int root : test_roots(size))
      for (const bool in_place : {false, true}) {
        const Vector v = vector_layout(size, root, 2);
        const int count = v.counts[static_cast<std::size_t>(rank)];
        const auto mine = pattern(rank, static_cast<std::size_t>(count), root);
        std::vector<int> init(static_cast<std::size_t>(v.total), -1);
        const void* send = mine.data();
        if (in_place && rank == root) {
          std::copy(mine.begin(), mine.end(),
                    init.begin() + v.displs[static_cast<std::size_t>(root)]);
          send = MPI_IN_PLACE;
        }
        expect_like_mpi(
            init,
            [&](int* recv, Mode mode) {
              return RUN(Gatherv, Igatherv, send, count, MPI_INT, recv, v.counts.data(),
                         v.displs.data(), MPI_INT, root);
            },
            describe(pair, count, root, in_place));
      }
  }
}

INSTANTIATE_TEST_SUITE_P(Algorithms, GatherTest,
                         ::testing::Values("", "binomial", "linear", "multilevel", "native"));

class ScatterTest : public CollTest {
  const char* variable() const override { return "SCOMM_COLL_SCATTER"; }
};

TEST_P(ScatterTest, EqualsMpiScatterForEveryRootCountAndInPlace) {
  for (const CommPair& pair : pairs_) {
    const int size = size_of(pair.mpi), rank = rank_of(pair.mpi);
    for (const int count : data_counts())
      for (const int root : test_roots(size))
        for (const bool in_place : {false, true}) {
          const auto all = pattern(rank, static_cast<std::size_t>(size * count), root);
          // In place, the root's receive buffer is its block of the send buffer, untouched.
          const bool root_in_place = in_place && rank == root;
          std::vector<int> init =
              root_in_place ? all : std::vector<int>(static_cast<std::size_t>(count), -1);
          expect_like_mpi(
              init,
              [&](int* recv, Mode mode) {
                const int* send = root_in_place ? recv : all.data();
                void* into = root_in_place ? MPI_IN_PLACE : recv;
                return RUN(Scatter, Iscatter, send, count, MPI_INT, into, count, MPI_INT, root);
              },
              describe(pair, count, root, in_place));
        }
  }
}

TEST_P(ScatterTest, ScattervWithZeroCountsAndGaps) {
  for (const CommPair& pair : pairs_) {
    const int size = size_of(pair.mpi), rank = rank_of(pair.mpi);
    for (const int root : test_roots(size))
      for (const bool in_place : {false, true}) {
        const Vector v = vector_layout(size, root + 1, 3);
        const int count = v.counts[static_cast<std::size_t>(rank)];
        const auto all = pattern(rank, static_cast<std::size_t>(v.total), root);
        const bool root_in_place = in_place && rank == root;
        std::vector<int> init =
            root_in_place ? all : std::vector<int>(static_cast<std::size_t>(count), -1);
        expect_like_mpi(
            init,
            [&](int* recv, Mode mode) {
              const int* send = root_in_place ? recv : all.data();
              void* into = root_in_place ? MPI_IN_PLACE : recv;
              return RUN(Scatterv, Iscatterv, send, v.counts.data(), v.displs.data(), MPI_INT, into,
                         count, MPI_INT, root);
            },
            describe(pair, count, root, in_place));
      }
  }
}

INSTANTIATE_TEST_SUITE_P(Algorithms, ScatterTest,
                         ::testing::Values("", "binomial", "linear", "multilevel", "native"));

// ----- allgather

class AllgatherTest : public CollTest {
  const char* variable() const override { return "SCOMM_COLL_ALLGATHER"; }
};

TEST_P(AllgatherTest, EqualsMpiAllgatherForEveryCountAndInPlace) {
  for (const CommPair& pair : pairs_) {
    const int size = size_of(pair.mpi), rank = rank_of(pair.mpi);
    for (const int count : data_counts())
      for (const bool in_place : {false, true}) {
        const auto mine = pattern(rank, static_cast<std::size_t>(count), count);
        std::vector<int> init(static_cast<std::size_t>(size * count), -1);
        const void* send = mine.data();
        if (in_place) {
          std::copy(mine.begin(), mine.end(), init.begin() + rank * count);
          send = MPI_IN_PLACE;
        }
        expect_like_mpi(
            init,
            [&](int* recv, Mode mode) {
              return RUN(Allgather, Iallgather, send, count, MPI_INT, recv, count, MPI_INT);
            },
            describe(pair, count, 0, in_place));
      }
  }
}

INSTANTIATE_TEST_SUITE_P(Algorithms, AllgatherTest,
                         ::testing::Values("", "bruck", "ring", "recursive_doubling", "multilevel",
                                           "native"));

class AllgathervTest : public CollTest {
  const char* variable() const override { return "SCOMM_COLL_ALLGATHERV"; }
};

TEST_P(AllgathervTest, WithZeroCountsAndGapsAndInPlace) {
  for (const CommPair& pair : pairs_) {
    const int size = size_of(pair.mpi), rank = rank_of(pair.mpi);
    for (int salt = 0; salt < 3; ++salt)
      for (const bool in_place : {false, true}) {
        const Vector v = vector_layout(size, salt, salt);
        const int count = v.counts[static_cast<std::size_t>(rank)];
        const auto mine = pattern(rank, static_cast<std::size_t>(count), salt);
        std::vector<int> init(static_cast<std::size_t>(v.total), -1);
        const void* send = mine.data();
        if (in_place) {
          std::copy(mine.begin(), mine.end(),
                    init.begin() + v.displs[static_cast<std::size_t>(rank)]);
          send = MPI_IN_PLACE;
        }
        expect_like_mpi(
            init,
            [&](int* recv, Mode mode) {
              return RUN(Allgatherv, Iallgatherv, send, count, MPI_INT, recv, v.counts.data(),
                         v.displs.data(), MPI_INT);
            },
            describe(pair, count, salt, in_place));
      }
  }
}

// Peak resident memory of this process, in MiB.
long peak_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;
}

// One int an element 128 MiB apart (a type resized to a large extent), gathered into a buffer
// of which only the ints are ever touched: the schedules' temporaries hold the ints alone. Laid
// out by the type they took hundreds of MiB per rank (zeroed), or failed for memory where MPI's
// own collective succeeds.
TEST_P(AllgathervTest, ASparseTypesTemporariesTakeNoRoomForItsGaps) {
#if defined(MPICH)
  if (GetParam() == "native")
    GTEST_SKIP() << "MPICH 4.0's MPI_(I)allgatherv on one process loses the block of this type";
#endif
  constexpr MPI_Aint kExtent = MPI_Aint{1} << 27;
  MPI_Datatype sparse = MPI_DATATYPE_NULL;
  MPI_Type_create_resized(MPI_INT, 0, kExtent, &sparse);
  MPI_Type_commit(&sparse);
  for (const CommPair& pair : pairs_) {
    const int size = size_of(pair.mpi), rank = rank_of(pair.mpi);
    std::vector<int> counts(static_cast<std::size_t>(size), 1), displs(counts.size());
    for (int r = 0; r < size; ++r) displs[static_cast<std::size_t>(r)] = 1 + 3 * r;
    const std::size_t bytes = static_cast<std::size_t>(displs.back() + 1) * kExtent;
    void* room = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    ASSERT_NE(room, MAP_FAILED);
    auto* base = static_cast<std::byte*>(room);
    const int mine = 100 + rank;
    const long before = peak_mib();
    ASSERT_EQ(
        SCOMM_Allgatherv(&mine, 1, MPI_INT, base, counts.data(), displs.data(), sparse, pair.scomm),
        SCOMM_SUCCESS)
        << pair.name;
    EXPECT_LT(peak_mib() - before, 64) << pair.name << ": MiB more at the peak";
    for (int r = 0; r < size; ++r) {
      int got = 0;
      std::memcpy(&got, base + displs[static_cast<std::size_t>(r)] * kExtent, sizeof got);
      EXPECT_EQ(got, 100 + r) << pair.name << ", rank " << r;
    }
    munmap(room, bytes);
  }
  MPI_Type_free(&sparse);
}

INSTANTIATE_TEST_SUITE_P(Algorithms, AllgathervTest,
                         ::testing::Values("", "ring", "linear", "bruck", "native"));

// ----- alltoall

class AlltoallTest : public CollTest {
  const char* variable() const override { return "SCOMM_COLL_ALLTOALL"; }
};

TEST_P(AlltoallTest, EqualsMpiAlltoallForEveryCountAndInPlace) {
  for (const CommPair& pair : pairs_) {
    const int size = size_of(pair.mpi), rank = rank_of(pair.mpi);
    for (const int count : data_counts())
      for (const bool in_place : {false, true}) {
        if (in_place && GetParam() == "native" && smpi_defect::kIalltoallInPlace) continue;
        const auto mine = pattern(rank, static_cast<std::size_t>(size * count), count);
        const std::vector<int> init =
            in_place ? mine : std::vector<int>(static_cast<std::size_t>(size * count), -1);
        expect_like_mpi(
            init,
            [&](int* recv, Mode mode) {
              const void* send = in_place ? MPI_IN_PLACE : mine.data();
              return RUN(Alltoall, Ialltoall, send, count, MPI_INT, recv, count, MPI_INT);
            },
            describe(pair, count, 0, in_place));
      }
  }
}

INSTANTIATE_TEST_SUITE_P(Algorithms, AlltoallTest,
                         ::testing::Values("", "pairwise", "bruck", "linear", "multilevel",
                                           "native"));

class AlltoallvTest : public CollTest {
  const char* variable() const override { return "SCOMM_COLL_ALLTOALLV"; }
};

// Rank i sends count(i, j) to rank j, after a gap of `gap` elements per block.
struct Exchange {
  Vector send, recv;
};
Exchange exchange_layout(int size, int rank, int salt, int gap, bool symmetric) {
  auto count = [&](int from, int to) {
    const int k = symmetric ? from + to : from + 2 * to;
    return (k + salt) % 4 == 0 ? 0 : (k * 5 + salt) % 9;
  };
  Exchange e;
  for (int peer = 0; peer < size; ++peer) {
    e.send.counts.push_back(count(rank, peer));
    e.recv.counts.push_back(count(peer, rank));
  }
  // Displacements in reverse rank order: blocks need not be in rank order.
  for (Vector* v : {&e.send, &e.recv}) {
    v->displs.assign(v->counts.size(), 0);
    for (std::size_t r = v->counts.size(); r-- > 0;) {
      v->displs[r] = v->total;
      v->total += v->counts[r] + gap;
    }
  }
  return e;
}

TEST_P(AlltoallvTest, WithZeroCountsGapsAndInPlace) {
  for (const CommPair& pair : pairs_) {
    const int size = size_of(pair.mpi), rank = rank_of(pair.mpi);
    for (int salt = 0; salt < 3; ++salt)
      for (const bool in_place : {false, true}) {
        const Exchange e = exchange_layout(size, rank, salt, salt, in_place);
        const auto mine = pattern(rank, static_cast<std::size_t>(e.send.total), salt);
        const std::vector<int> init =
            in_place ? pattern(rank, static_cast<std::size_t>(e.recv.total), salt)
                     : std::vector<int>(static_cast<std::size_t>(e.recv.total), -1);
        expect_like_mpi(
            init,
            [&](int* recv, Mode mode) {
              const void* send = in_place ? MPI_IN_PLACE : mine.data();
              return RUN(Alltoallv, Ialltoallv, send, e.send.counts.data(), e.send.displs.data(),
                         MPI_INT, recv, e.recv.counts.data(), e.recv.displs.data(), MPI_INT);
            },
            describe(pair, salt, 0, in_place));
      }
  }
}

INSTANTIATE_TEST_SUITE_P(Algorithms, AlltoallvTest, ::testing::Values("", "linear", "native"));

class AlltoallwTest : public CollTest {
  const char* variable() const override { return "SCOMM_COLL_ALLTOALLW"; }

 protected:
  void SetUp() override {
    CollTest::SetUp();
    MPI_Type_contiguous(2, MPI_INT, &pair_);
    MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &every_other_);
    for (MPI_Datatype* type : {&pair_, &every_other_}) MPI_Type_commit(type);
  }
  void TearDown() override {
    MPI_Type_free(&pair_);
    MPI_Type_free(&every_other_);
    CollTest::TearDown();
  }

  // One side of an Alltoallw: per rank a count, a byte displacement and a type.
  struct Side {
    std::vector<int> counts, displs;
    std::vector<MPI_Datatype> types;
    int total = 0;  // ints the buffer holds
  };
  // Rank `peer`'s block of `ints` ints as the type `choice` picks (0: ints; 1: every other int of
  // a span twice as long; 2: pairs, where the block's length is even), blocks in reverse rank
  // order with `gap` ints after each.
  Side side(const std::vector<int>& ints, const std::function<int(int peer)>& choice,
            int gap) const {
    Side s;
    const std::size_t n = ints.size();
    s.counts.assign(n, 0);
    s.displs.assign(n, 0);
    s.types.assign(n, MPI_INT);
    for (std::size_t r = n; r-- > 0;) {
      const int k = ints[r], pick = choice(static_cast<int>(r));
      int span = k;
      if (pick == 2 && k % 2 == 0) {
        s.types[r] = pair_, s.counts[r] = k / 2;
      } else if (pick == 1) {
        s.types[r] = every_other_, s.counts[r] = k, span = k == 0 ? 0 : 2 * k - 1;
      } else {
        s.counts[r] = k;
      }
      s.displs[r] = s.total * static_cast<int>(sizeof(int));
      s.total += span + gap;
    }
    return s;
  }

  MPI_Datatype pair_ = MPI_DATATYPE_NULL, every_other_ = MPI_DATATYPE_NULL;
};

// Rank i sends j the ints of exchange_layout's count(i, j), each block in a type of its own, the
// receiver's type another than the sender's; in place, the receive buffer's blocks and types go
// both ways.
TEST_P(AlltoallwTest, TypesPerBlockWithZeroCountsGapsAndInPlace) {
  for (const CommPair& pair : pairs_) {
    const int size = size_of(pair.mpi), rank = rank_of(pair.mpi);
    for (int salt = 0; salt < 3; ++salt)
      for (const bool in_place : {false, true}) {
        // "native" in place is SMPI's own, which is wrong there (smpi_defects.hpp).
        if (in_place && GetParam() == "native" && smpi_defect::kAlltoallwInPlace) continue;
        const Exchange e = exchange_layout(size, rank, salt, 0, in_place);
        const Side send = side(
            e.send.counts, [&](int peer) { return (rank + peer + salt) % 3; }, salt);
        const Side recv = side(
            e.recv.counts, [&](int peer) { return (2 * rank + peer + salt) % 3; }, 1);
        const auto mine = pattern(rank, static_cast<std::size_t>(send.total), salt);
        const std::vector<int> init =
            in_place ? pattern(rank, static_cast<std::size_t>(recv.total), salt)
                     : std::vector<int>(static_cast<std::size_t>(recv.total), -1);
        expect_like_mpi(
            init,
            [&](int* out, Mode mode) {
              const void* in = in_place ? MPI_IN_PLACE : mine.data();
              if (mode == Mode::kMpi && in_place && smpi_defect::kAlltoallwInPlace) {
                // In place means this: the receive buffer's blocks, sent from a copy.
                const std::vector<int> blocks(out, out + recv.total);
                return MPI_Alltoallw(blocks.data(), recv.counts.data(), recv.displs.data(),
                                     recv.types.data(), out, recv.counts.data(), recv.displs.data(),
                                     recv.types.data(), pair.mpi);
              }
              return RUN(Alltoallw, Ialltoallw, in, send.counts.data(), send.displs.data(),
                         send.types.data(), out, recv.counts.data(), recv.displs.data(),
                         recv.types.data());
            },
            describe(pair, salt, 0, in_place));
      }
  }
}

// In place where rank 0's one non-empty block is its own and every other block is empty: the
// buffers stay as they are. (Open MPI 4.1's own nonblocking call never completes there.)
TEST_P(AlltoallwTest, InPlaceWithOneOwnBlockAloneCompletes) {
  if (GetParam() == "native" && smpi_defect::kAlltoallwInPlace) GTEST_SKIP();
  for (const CommPair& pair : pairs_) {
    const int size = size_of(pair.mpi), rank = rank_of(pair.mpi);
    const auto n = static_cast<std::size_t>(size);
    std::vector<int> counts(n, 0), displs(n);
    for (std::size_t j = 0; j < n; ++j) displs[j] = static_cast<int>(4 * j * sizeof(int));
    if (rank == 0) counts[0] = 1;
    const std::vector<MPI_Datatype> types(n, MPI_INT);
    const std::vector<int> before = pattern(rank, 4 * n, 0);
    for (const Mode mode : {Mode::kBlocking, Mode::kNonblocking}) {
      std::vector<int> out = before;
      int* data = out.data();
      ASSERT_EQ(RUN(Alltoallw, Ialltoallw, MPI_IN_PLACE, counts.data(), displs.data(), types.data(),
                    data, counts.data(), displs.data(), types.data()),
                SCOMM_SUCCESS);
      EXPECT_EQ(out, before) << (mode == Mode::kBlocking ? "blocking" : "nonblocking");
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Algorithms, AlltoallwTest, ::testing::Values("", "linear", "native"));

// ----- datatypes: every operation with its default algorithm and every forced one

// A send type and a receive type with the same signature per element pair: `send_per` send
// elements match `recv_per` receive elements.
struct TypePair {
  MPI_Datatype send, recv;
  int send_per, recv_per;
  std::string name;
};

// Ints a buffer of `count` elements of `type` spans (extent-based; the types start at 0).
std::size_t ints_for(int count, MPI_Datatype type) {
  MPI_Aint lb = 0, extent = 0;
  MPI_Type_get_extent(type, &lb, &extent);
  return static_cast<std::size_t>(count) * static_cast<std::size_t>(extent) / sizeof(int);
}

class DatatypeTest : public ScommTest {
 protected:
  void SetUp() override {
    ScommTest::SetUp();
    MPI_Type_contiguous(2, MPI_INT, &pair_);
    MPI_Type_vector(3, 1, 2, MPI_INT, &strided_);  // ints 0, 2, 4 of 5
    // Ints 3, 4, 5, then 0, 1, 2: as dense as 6 ints, but its packed bytes are not its memory's
    // (broadcasts that cut the buffer once sent its memory as it lay).
    const int lengths[2] = {3, 3}, displacements[2] = {3, 0};
    MPI_Type_indexed(2, lengths, displacements, MPI_INT, &swapped_);
    for (MPI_Datatype* type : {&pair_, &strided_, &swapped_}) MPI_Type_commit(type);
    types_ = {{MPI_INT, pair_, 2, 1, "2 int -> pair"},
              {pair_, MPI_INT, 1, 2, "pair -> 2 int"},
              {strided_, MPI_INT, 1, 3, "strided -> 3 int"},
              {MPI_INT, strided_, 3, 1, "3 int -> strided"},
              {strided_, strided_, 1, 1, "strided"}};
    if (!smpi_defect::kPermutedIndexedTypes) {  // the reference is wrong there
      types_.push_back({swapped_, MPI_INT, 1, 6, "swapped -> 6 int"});
      types_.push_back({MPI_INT, swapped_, 6, 1, "6 int -> swapped"});
    }
  }
  void TearDown() override {
    for (MPI_Datatype* type : {&pair_, &strided_, &swapped_}) MPI_Type_free(type);
    ScommTest::TearDown();
  }
  // Every algorithm of `operation` (SCOMM_COLL_...) in turn: each needs its own SCOMM_Init.
  template <typename Body>
  void for_each_algorithm(const char* variable, std::vector<std::string> algorithms, Body body) {
    for (const std::string& algorithm : algorithms) {
      reinit_with(variable, algorithm);
      const CommPair pair{SCOMM_COMM_WORLD, MPI_COMM_WORLD, "world " + algorithm};
      for (const TypePair& t : types_) body(pair, t);
    }
  }

  // Every algorithm of the gathers, scatters, allgathers and alltoalls sending `t`.
  void expect_overlapping_sends_like_mpi(const struct OverlappingType& t);

  MPI_Datatype pair_ = MPI_DATATYPE_NULL, strided_ = MPI_DATATYPE_NULL;
  MPI_Datatype swapped_ = MPI_DATATYPE_NULL;
  std::vector<TypePair> types_;
};

// The decoding of type maps: in pack order where every entry lies after the one before (gaps
// allowed), not where entries run backwards or overlap, whatever sizes and extents say.
TEST(TypeOrderTest, TypeMapsInPackOrderAreToldFromOthers) {
  if (kOnSmpi) GTEST_SKIP() << "SMPI's MPI_Type_get_envelope misreports constructors";
  std::vector<MPI_Datatype> made;
  const auto keep = [&made](MPI_Datatype t) { return made.emplace_back(t); };
  MPI_Datatype t = MPI_DATATYPE_NULL, inner = MPI_DATATYPE_NULL;
  const auto in_order = [](MPI_Datatype type) { return scomm::coll::runs_in_pack_order(type); };
  EXPECT_TRUE(in_order(MPI_DOUBLE_INT));
  MPI_Type_vector(3, 1, 2, MPI_INT, &t);
  EXPECT_TRUE(in_order(keep(t)));  // gaps
  inner = t;
  MPI_Type_create_resized(inner, 0, sizeof(int), &t);
  EXPECT_TRUE(in_order(keep(t)));  // alone in order, but in a run its elements interleave...
  inner = t;
  MPI_Type_contiguous(2, inner, &t);
  EXPECT_FALSE(in_order(keep(t)));  // ...as here
  MPI_Type_vector(3, 1, -2, MPI_INT, &t);
  EXPECT_FALSE(in_order(keep(t)));  // backwards
  const int lengths[3] = {1, 1, 1}, same[3] = {0, 0, 2}, ascending[3] = {0, 4, 9};
  MPI_Type_indexed(3, lengths, same, MPI_INT, &t);
  EXPECT_FALSE(in_order(keep(t)));  // an entry twice
  MPI_Type_indexed(3, lengths, ascending, MPI_INT, &t);
  EXPECT_TRUE(in_order(keep(t)));
  const int two[2] = {1, 1};
  const MPI_Aint forward[2] = {0, 8}, backward[2] = {8, 0};
  const MPI_Datatype members[2] = {MPI_DOUBLE, MPI_INT};
  MPI_Type_create_struct(2, two, forward, members, &t);
  EXPECT_TRUE(in_order(keep(t)));
  MPI_Type_create_struct(2, two, backward, members, &t);
  EXPECT_FALSE(in_order(keep(t)));
  for (MPI_Datatype& type : made) MPI_Type_free(&type);
}

constexpr int kUnits = 5;  // send_per * kUnits send elements per block

// The root's type differs from the others' (same signature), with the data long enough for
// several segments of the pipelined algorithms (32 KiB) and pieces of uneven length: every
// member must cut it alike.
TEST_F(DatatypeTest, BcastConvertsBetweenTheRootsTypeAndTheOthers) {
  constexpr int kLongUnits = 6007;
  const int size = world_size_, rank = world_rank_;
  for_each_algorithm(
      "SCOMM_COLL_BCAST",
      {"binomial", "knomial", "pipelined_tree", "scatter_allgather", "multilevel"},
      [&](const CommPair& pair, const TypePair& t) {
        for (const int root : {0, size - 1}) {
          const bool sends = rank == root;
          const MPI_Datatype type = sends ? t.send : t.recv;
          const int count = (sends ? t.send_per : t.recv_per) * kLongUnits;
          const std::vector<int> init = sends ? pattern(root, ints_for(count, type), 7)
                                              : std::vector<int>(ints_for(count, type), -1);
          expect_like_mpi(
              init,
              [&](int* buffer, Mode mode) { return RUN(Bcast, Ibcast, buffer, count, type, root); },
              t.name + " bcast root " + std::to_string(root));
        }
      });
}

TEST_F(DatatypeTest, GatherAndScatterConvertBetweenTypes) {
  const int size = world_size_, rank = world_rank_;
  for_each_algorithm(
      "SCOMM_COLL_GATHER", {"binomial", "linear"}, [&](const CommPair& pair, const TypePair& t) {
        const int sc = t.send_per * kUnits, rc = t.recv_per * kUnits;
        for (const int root : test_roots(size)) {
          const auto mine = pattern(rank, ints_for(sc, t.send), root);
          const std::vector<int> init(ints_for(rc * size, t.recv), -1);
          expect_like_mpi(
              init,
              [&](int* recv, Mode mode) {
                return RUN(Gather, Igather, mine.data(), sc, t.send, recv, rc, t.recv, root);
              },
              t.name + " gather root " + std::to_string(root));
        }
      });
  for_each_algorithm(
      "SCOMM_COLL_SCATTER", {"binomial", "linear"}, [&](const CommPair& pair, const TypePair& t) {
        const int sc = t.send_per * kUnits, rc = t.recv_per * kUnits;
        for (const int root : test_roots(size)) {
          const auto all = pattern(rank, ints_for(sc * size, t.send), root);
          const std::vector<int> init(ints_for(rc, t.recv), -1);
          expect_like_mpi(
              init,
              [&](int* recv, Mode mode) {
                return RUN(Scatter, Iscatter, all.data(), sc, t.send, recv, rc, t.recv, root);
              },
              t.name + " scatter root " + std::to_string(root));
        }
      });
}

// MPI_Alltoall's result, computed by MPI_Alltoallv with every count and stride the same: Open
// MPI 4.1.4's MPI_Alltoall (Debian 12's) takes, with short blocks on many ranks (here from 16),
// a Bruck algorithm that gives wrong results and writes outside the receive buffer when the send
// and receive types differ (fixed after 4.1.4: open-mpi/ompi#10488); MPI_Alltoallv has none.
int alltoall_as_alltoallv(const void* send, int send_count, MPI_Datatype send_type, void* recv,
                          int recv_count, MPI_Datatype recv_type, MPI_Comm comm) {
  const auto size = static_cast<std::size_t>(size_of(comm));
  const Vector sent = laid_out(std::vector<int>(size, send_count), 0),
               received = laid_out(std::vector<int>(size, recv_count), 0);
  return MPI_Alltoallv(send, sent.counts.data(), sent.displs.data(), send_type, recv,
                       received.counts.data(), received.displs.data(), recv_type, comm);
}

TEST_F(DatatypeTest, AllgatherAndAlltoallConvertBetweenTypes) {
  const int size = world_size_, rank = world_rank_;
  for_each_algorithm("SCOMM_COLL_ALLGATHER", {"bruck", "ring", "recursive_doubling"},
                     [&](const CommPair& pair, const TypePair& t) {
                       const int sc = t.send_per * kUnits, rc = t.recv_per * kUnits;
                       const auto mine = pattern(rank, ints_for(sc, t.send), 3);
                       expect_like_mpi(
                           std::vector<int>(ints_for(rc * size, t.recv), -1),
                           [&](int* recv, Mode mode) {
                             return RUN(Allgather, Iallgather, mine.data(), sc, t.send, recv, rc,
                                        t.recv);
                           },
                           t.name + " allgather");
                     });
  for_each_algorithm(
      "SCOMM_COLL_ALLTOALL", {"pairwise", "bruck", "linear"},
      [&](const CommPair& pair, const TypePair& t) {
        const int sc = t.send_per * kUnits, rc = t.recv_per * kUnits;
        const auto mine = pattern(rank, ints_for(sc * size, t.send), 4);
        expect_like_mpi(
            std::vector<int>(ints_for(rc * size, t.recv), -1),
            [&](int* recv, Mode mode) {
              if (mode == Mode::kMpi)
                return alltoall_as_alltoallv(mine.data(), sc, t.send, recv, rc, t.recv, pair.mpi);
              return RUN(Alltoall, Ialltoall, mine.data(), sc, t.send, recv, rc, t.recv);
            },
            t.name + " alltoall");
      });
}

// Even ranks receive in the strided type, odd ones in ints (same signature), with blocks long
// enough for several pipeline segments (the multilevel algorithm broadcasts the gathered blocks
// in segments): every member must cut alike.
TEST_F(DatatypeTest, AllgatherWhereMembersReceiveInDifferentTypes) {
  constexpr int kLongUnits = 3001;  // 36 KB blocks
  const int size = world_size_, rank = world_rank_;
  const bool strided = rank % 2 == 0;
  const MPI_Datatype type = strided ? strided_ : MPI_INT;
  const int rc = strided ? kLongUnits : 3 * kLongUnits;
  const auto mine = pattern(rank, 3 * kLongUnits, 8);
  for (const std::string algorithm : {"multilevel", "ring", "bruck", "recursive_doubling"}) {
    reinit_with("SCOMM_COLL_ALLGATHER", algorithm);
    const CommPair pair{SCOMM_COMM_WORLD, MPI_COMM_WORLD, "world " + algorithm};
    expect_like_mpi(
        std::vector<int>(ints_for(rc * size, type), -1),
        [&](int* recv, Mode mode) {
          return RUN(Allgather, Iallgather, mine.data(), 3 * kLongUnits, MPI_INT, recv, rc, type);
        },
        pair.name + " allgather");
  }
}

TEST_F(DatatypeTest, VectorFormsConvertBetweenTypes) {
  const int size = world_size_, rank = world_rank_;
  const CommPair pair{SCOMM_COMM_WORLD, MPI_COMM_WORLD, "world"};
  for (const TypePair& t : types_) {
    // Rank r's block: r % 3 units, at displacement 2 * r units of the receive type (gaps).
    std::vector<int> rcounts, displs;
    for (int r = 0; r < size; ++r) {
      rcounts.push_back(t.recv_per * (r % 3));
      displs.push_back(2 * t.recv_per * r);
    }
    const int sc = t.send_per * (rank % 3);
    const auto mine = pattern(rank, ints_for(sc, t.send), 5);
    const std::vector<int> init(ints_for(2 * t.recv_per * size, t.recv), -1);
    expect_like_mpi(
        init,
        [&](int* recv, Mode mode) {
          return RUN(Allgatherv, Iallgatherv, mine.data(), sc, t.send, recv, rcounts.data(),
                     displs.data(), t.recv);
        },
        t.name + " allgatherv");
    expect_like_mpi(
        init,
        [&](int* recv, Mode mode) {
          return RUN(Gatherv, Igatherv, mine.data(), sc, t.send, recv, rcounts.data(),
                     displs.data(), t.recv, size - 1);
        },
        t.name + " gatherv");
    // Alltoallv: u units to every rank, u = 1 + (rank + peer) % 2 (symmetric).
    std::vector<int> scount, sdispl, rcount, rdispl;
    for (int peer = 0; peer < size; ++peer) {
      const int u = 1 + (rank + peer) % 2;
      scount.push_back(t.send_per * u);
      sdispl.push_back(2 * t.send_per * peer);
      rcount.push_back(t.recv_per * u);
      rdispl.push_back(2 * t.recv_per * peer);
    }
    const auto blocks = pattern(rank, ints_for(2 * t.send_per * size, t.send), 6);
    expect_like_mpi(
        init,
        [&](int* recv, Mode mode) {
          return RUN(Alltoallv, Ialltoallv, blocks.data(), scount.data(), sdispl.data(), t.send,
                     recv, rcount.data(), rdispl.data(), t.recv);
        },
        t.name + " alltoallv");
  }
}

// ----- send types whose elements overlap

// The ints elements 0..count-1 of a type whose element k is ints k, k+2 and k+4 send: what MPI
// sends for them, packed.
// A send type of 3 ints an element whose elements, or entries, overlap: element k holds the ints
// at k * extent + offsets[j].
struct OverlappingType {
  MPI_Datatype type;
  int extent;  // in ints
  std::array<int, 3> offsets;
  std::string name;
};

// `count` elements of `t` packed, as MPI sends them.
std::vector<int> packed_elements(const std::vector<int>& ints, int count,
                                 const OverlappingType& t) {
  std::vector<int> packed;
  for (int k = 0; k < count; ++k)
    for (const int offset : t.offsets)
      packed.push_back(ints[static_cast<std::size_t>(k * t.extent + offset)]);
  return packed;
}

// A send side of a collective: MPI's reference sends the packed ints, scomm the overlapping type.
struct SendSide {
  const int* buffer;
  int count;
  MPI_Datatype type;
};

// MPI lets the elements of a send buffer overlap (a vector of 3 ints 2 apart, resized to one int:
// element k is ints k, k+2 and k+4), and an element name one int twice (an indexed type of ints
// 0, 0 and 2), and sends them packed. A temporary that holds several ranks' elements must not
// overlap them, nor receive into one int twice, as Open MPI 4.1's own binomial gather does: the
// reference is MPI's call on the packed ints, which every algorithm must give (multilevel over
// two levels).
TEST_F(DatatypeTest, SendTypesWhoseElementsOverlap) {
  if (smpi_defect::kResizedTrueExtent)
    GTEST_SKIP() << "SMPI's MPI_Type_get_true_extent hides the overlap (smpi_defects.hpp)";
  MPI_Datatype vector = MPI_DATATYPE_NULL, overlapping = MPI_DATATYPE_NULL, twice = vector;
  MPI_Type_vector(3, 1, 2, MPI_INT, &vector);
  MPI_Type_create_resized(vector, 0, sizeof(int), &overlapping);
  MPI_Type_free(&vector);
  const int ones[3] = {1, 1, 1}, at[3] = {0, 0, 2};
  MPI_Type_indexed(3, ones, at, MPI_INT, &twice);
  for (MPI_Datatype* type : {&overlapping, &twice}) MPI_Type_commit(type);
  for (const OverlappingType& t : {OverlappingType{overlapping, 1, {0, 2, 4}, "overlapping"},
                                   OverlappingType{twice, 3, {0, 0, 2}, "an int twice"}})
    expect_overlapping_sends_like_mpi(t);
  for (MPI_Datatype* type : {&overlapping, &twice}) MPI_Type_free(type);
}

void DatatypeTest::expect_overlapping_sends_like_mpi(const OverlappingType& t) {
  const int p = world_size_, rank = world_rank_, count = 5, all = count * p;
  const auto mine = pattern(rank, static_cast<std::size_t>(count * t.extent + 4), 1);
  const auto blocks = pattern(rank, static_cast<std::size_t>(all * t.extent + 4), 2);
  const auto mine_packed = packed_elements(mine, count, t);
  const auto blocks_packed = packed_elements(blocks, all, t);
  const auto side = [&](Mode mode, const std::vector<int>& ints, const std::vector<int>& packed) {
    return mode == Mode::kMpi ? SendSide{packed.data(), static_cast<int>(packed.size()), MPI_INT}
                              : SendSide{ints.data(), static_cast<int>(packed.size()) / 3, t.type};
  };
  const auto received = [](int elements) { return std::vector<int>(3 * elements, -1); };
  const CommPair pair{SCOMM_COMM_WORLD, MPI_COMM_WORLD, "world"};
  setenv("SCOMM_TOPO_BLOCKS", "site=4,machine=2", 1);
  for (const char* algorithm : {"binomial", "linear", "multilevel"}) {
    reinit_with("SCOMM_COLL_GATHER", algorithm);
    for (const int root : test_roots(p))
      expect_like_mpi(
          received(all),
          [&](int* recv, Mode mode) {
            const SendSide s = side(mode, mine, mine_packed);
            return RUN(Gather, Igather, s.buffer, s.count, s.type, recv, 3 * count, MPI_INT, root);
          },
          t.name + " gather " + algorithm + " root " + std::to_string(root));
    reinit_with("SCOMM_COLL_SCATTER", algorithm);
    for (const int root : test_roots(p))
      expect_like_mpi(
          received(count),
          [&](int* recv, Mode mode) {
            const SendSide s = side(mode, blocks, blocks_packed);
            return RUN(Scatter, Iscatter, s.buffer, s.count / p, s.type, recv, 3 * count, MPI_INT,
                       root);
          },
          t.name + " scatter " + algorithm + " root " + std::to_string(root));
  }
  for (const char* algorithm : {"bruck", "ring", "recursive_doubling", "multilevel"}) {
    reinit_with("SCOMM_COLL_ALLGATHER", algorithm);
    expect_like_mpi(
        received(all),
        [&](int* recv, Mode mode) {
          const SendSide s = side(mode, mine, mine_packed);
          return RUN(Allgather, Iallgather, s.buffer, s.count, s.type, recv, 3 * count, MPI_INT);
        },
        t.name + " allgather " + algorithm);
  }
  for (const char* algorithm : {"pairwise", "bruck", "linear", "multilevel"}) {
    reinit_with("SCOMM_COLL_ALLTOALL", algorithm);
    expect_like_mpi(
        received(all),
        [&](int* recv, Mode mode) {
          const SendSide s = side(mode, blocks, blocks_packed);
          return RUN(Alltoall, Ialltoall, s.buffer, s.count / p, s.type, recv, 3 * count, MPI_INT);
        },
        t.name + " alltoall " + algorithm);
  }
  unsetenv("SCOMM_TOPO_BLOCKS");
}

// ----- types freed while a nonblocking collective uses them

// MPI lets a caller free a datatype while an operation that uses it is pending: the run must
// move its data by a type of its own. Other types made meanwhile take the freed one's memory.
TEST_F(DatatypeTest, TypesFreedWhileANonblockingCollectiveRuns) {
  if (smpi_defect::kTypeDup) GTEST_SKIP() << "SMPI's MPI_Type_dup: scomm keeps the caller's types";
  const int p = world_size_, rank = world_rank_;
  const auto make_strided = [] {
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_Type_vector(3, 1, 2, MPI_INT, &type);  // ints 0, 2, 4 of 5
    MPI_Type_commit(&type);
    return type;
  };
  const auto mine = pattern(rank, 5, 1);
  const auto size = static_cast<std::size_t>(5 * p);
  std::vector<int> expected(size, -1), got(size, -1), rooted(size, -1), rooted_expected(size, -1);
  MPI_Datatype reference = make_strided();
  MPI_Allgather(mine.data(), 1, reference, expected.data(), 1, reference, MPI_COMM_WORLD);
  MPI_Gather(mine.data(), 1, reference, rooted_expected.data(), 1, reference, p - 1,
             MPI_COMM_WORLD);
  MPI_Type_free(&reference);
  for (const char* algorithm : {"bruck", "ring", "recursive_doubling"}) {
    reinit_with("SCOMM_COLL_ALLGATHER", algorithm);
    MPI_Datatype strided = make_strided(), for_gather = make_strided();
    std::array<SCOMM_Request, 2> requests{SCOMM_REQUEST_NULL, SCOMM_REQUEST_NULL};
    ASSERT_EQ(SCOMM_Iallgather(mine.data(), 1, strided, got.data(), 1, strided, SCOMM_COMM_WORLD,
                               &requests[0]),
              SCOMM_SUCCESS);
    ASSERT_EQ(SCOMM_Igather(mine.data(), 1, for_gather, rooted.data(), 1, for_gather, p - 1,
                            SCOMM_COMM_WORLD, &requests[1]),
              SCOMM_SUCCESS);
    MPI_Type_free(&strided);
    MPI_Type_free(&for_gather);
    std::array<MPI_Datatype, 4> others{};
    for (MPI_Datatype& other : others) MPI_Type_contiguous(7, MPI_DOUBLE, &other);
    ASSERT_EQ(SCOMM_Waitall(2, requests.data(), SCOMM_STATUSES_IGNORE), SCOMM_SUCCESS);
    for (MPI_Datatype& other : others) MPI_Type_free(&other);
    EXPECT_EQ(got, expected) << algorithm;
    EXPECT_EQ(rooted, rooted_expected) << algorithm;
  }
}

// ----- buffers at MPI_BOTTOM

// A type of absolute addresses at MPI_BOTTOM (null in Open MPI and MPICH) is a buffer as any
// other: send, receive and in-place sides, against MPI's own, through every algorithm whose
// temporaries take the type's layout (whose base is then far from their memory).
TEST_F(ScommTest, BuffersAtMpiBottomWithTypesOfAbsoluteAddresses) {
  if (smpi_defect::kBottomNotNull) GTEST_SKIP() << "SMPI's MPI_BOTTOM is not null";
  const int p = world_size_, rank = world_rank_, count = 7;
  const CommPair pair{SCOMM_COMM_WORLD, MPI_COMM_WORLD, "world"};
  const auto total = static_cast<std::size_t>(count * p);
  const auto mine = pattern(rank, static_cast<std::size_t>(count), 1);
  const auto blocks = pattern(rank, total, 2);
  const AbsoluteInts my_block(mine.data(), count), first_block(blocks.data(), count);
  const std::pair<const char*, const char*> settings[] = {
      {"SCOMM_COLL_GATHER", "binomial"},
      {"SCOMM_COLL_GATHER", "linear"},
      {"SCOMM_COLL_SCATTER", "binomial"},
      {"SCOMM_COLL_SCATTER", "linear"},
      {"SCOMM_COLL_BCAST", "binomial"},
      {"SCOMM_COLL_BCAST", "scatter_allgather"},
      {"SCOMM_COLL_ALLTOALL", "bruck"},
      {"SCOMM_COLL_ALLTOALL", "pairwise"},
      {"SCOMM_COLL_ALLGATHER", "bruck"},
      {"SCOMM_COLL_ALLGATHER", "ring"},
      {"SCOMM_COLL_ALLGATHER", "recursive_doubling"}};
  for (const auto& [variable, algorithm] : settings) {
    reinit_with(variable, algorithm);
    const std::string with = std::string(" (") + variable + "=" + algorithm + ")";
    for (const int root : {0, p - 1}) {
      expect_like_mpi(
          std::vector<int>(total, -1),
          [&](int* recv, Mode mode) {
            return RUN(Gather, Igather, MPI_BOTTOM, 1, my_block.type(), recv, count, MPI_INT, root);
          },
          "gather from MPI_BOTTOM, root " + std::to_string(root) + with);
      expect_like_mpi(
          std::vector<int>(static_cast<std::size_t>(count), -1),
          [&](int* recv, Mode mode) {
            return RUN(Scatter, Iscatter, MPI_BOTTOM, 1, first_block.type(), recv, count, MPI_INT,
                       root);
          },
          "scatter from MPI_BOTTOM, root " + std::to_string(root) + with);
      expect_like_mpi(
          rank == root ? pattern(root, static_cast<std::size_t>(count), 3)
                       : std::vector<int>(static_cast<std::size_t>(count), -1),
          [&](int* buffer, Mode mode) {
            const AbsoluteInts at(buffer, count);
            return RUN(Bcast, Ibcast, MPI_BOTTOM, 1, at.type(), root);
          },
          "bcast at MPI_BOTTOM, root " + std::to_string(root) + with);
    }
    // Block j of `count` ints at MPI_BOTTOM + j extents: the type's extent is its ints'.
    expect_like_mpi(
        std::vector<int>(total, -1),
        [&](int* recv, Mode mode) {
          const AbsoluteInts at(recv, count);
          if (mode == Mode::kMpi)  // Open MPI 4.1.4's own crashes at 16 ranks (see above)
            return alltoall_as_alltoallv(MPI_BOTTOM, 1, first_block.type(), MPI_BOTTOM, 1,
                                         at.type(), pair.mpi);
          return RUN(Alltoall, Ialltoall, MPI_BOTTOM, 1, first_block.type(), MPI_BOTTOM, 1,
                     at.type());
        },
        "alltoall from and to MPI_BOTTOM" + with);
    expect_like_mpi(
        std::vector<int>(total, -1),
        [&](int* recv, Mode mode) {
          // On the stack, far above the heap that holds the run's temporaries: one laid out by
          // this type has its base below address 0.
          std::array<int, 1024> on_stack{};
          if (total > on_stack.size()) return -1;
          const AbsoluteInts at(on_stack.data(), count);
          const int rc =
              RUN(Allgather, Iallgather, mine.data(), count, MPI_INT, MPI_BOTTOM, 1, at.type());
          std::copy_n(on_stack.begin(), total, recv);
          return rc;
        },
        "allgather to MPI_BOTTOM on the stack" + with);
    expect_like_mpi(
        blocks,
        [&](int* buffer, Mode mode) {
          const AbsoluteInts at(buffer, count);
          return RUN(Allgather, Iallgather, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, MPI_BOTTOM, 1,
                     at.type());
        },
        "allgather in place at MPI_BOTTOM" + with);
  }
  // Data at address 0 is still no buffer.
  SCOMM_Comm_set_errhandler(SCOMM_COMM_WORLD, SCOMM_ERRORS_RETURN);
  int value = 0;
  EXPECT_EQ(error_class_of(SCOMM_Allreduce(&value, nullptr, 1, MPI_INT, MPI_SUM, SCOMM_COMM_WORLD)),
            SCOMM_ERR_BUFFER);
}

// ----- several nonblocking collectives in flight

TEST_F(ScommTest, SeveralNonblockingDataCollectivesInFlight) {
  const int p = world_size_, rank = world_rank_;
  const auto n = static_cast<std::size_t>(p);
  const int count = 37, root = p / 2;
  const auto mine = pattern(rank, static_cast<std::size_t>(count), 1);
  const auto blocks = pattern(rank, static_cast<std::size_t>(count) * n, 2);
  std::vector<int> counts(n, count), displs(n);
  for (std::size_t r = 0; r < n; ++r) displs[r] = static_cast<int>(r) * (count + 1);
  const std::size_t all = n * static_cast<std::size_t>(count);
  const std::size_t spaced = n * static_cast<std::size_t>(count + 1);
  const auto spaced_blocks = pattern(rank, spaced, 3);
  std::vector<std::vector<int>> got{std::vector<int>(all, -1),    std::vector<int>(count, -1),
                                    std::vector<int>(all, -1),    std::vector<int>(all, -1),
                                    std::vector<int>(spaced, -1), std::vector<int>(spaced, -1),
                                    std::vector<int>(spaced, -1)};
  auto expected = got;
  std::vector<SCOMM_Request> requests(7, SCOMM_REQUEST_NULL);
  const SCOMM_Comm w = SCOMM_COMM_WORLD;
  ASSERT_EQ(SCOMM_Igather(mine.data(), count, MPI_INT, got[0].data(), count, MPI_INT, root, w,
                          &requests[0]),
            SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Iscatter(blocks.data(), count, MPI_INT, got[1].data(), count, MPI_INT, root, w,
                           &requests[1]),
            SCOMM_SUCCESS);
  ASSERT_EQ(
      SCOMM_Iallgather(mine.data(), count, MPI_INT, got[2].data(), count, MPI_INT, w, &requests[2]),
      SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Ialltoall(blocks.data(), count, MPI_INT, got[3].data(), count, MPI_INT, w,
                            &requests[3]),
            SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Iallgatherv(mine.data(), count, MPI_INT, got[4].data(), counts.data(),
                              displs.data(), MPI_INT, w, &requests[4]),
            SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Igatherv(mine.data(), count, MPI_INT, got[5].data(), counts.data(), displs.data(),
                           MPI_INT, 0, w, &requests[5]),
            SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Ialltoallv(spaced_blocks.data(), counts.data(), displs.data(), MPI_INT,
                             got[6].data(), counts.data(), displs.data(), MPI_INT, w, &requests[6]),
            SCOMM_SUCCESS);
  if (rank % 2 == 0) {
    ASSERT_EQ(SCOMM_Waitall(7, requests.data(), SCOMM_STATUSES_IGNORE), SCOMM_SUCCESS);
  } else {
    for (std::size_t i = requests.size(); i-- > 0;)
      ASSERT_EQ(SCOMM_Wait(&requests[i], SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  }
  const MPI_Comm m = MPI_COMM_WORLD;
  MPI_Gather(mine.data(), count, MPI_INT, expected[0].data(), count, MPI_INT, root, m);
  MPI_Scatter(blocks.data(), count, MPI_INT, expected[1].data(), count, MPI_INT, root, m);
  MPI_Allgather(mine.data(), count, MPI_INT, expected[2].data(), count, MPI_INT, m);
  MPI_Alltoall(blocks.data(), count, MPI_INT, expected[3].data(), count, MPI_INT, m);
  MPI_Allgatherv(mine.data(), count, MPI_INT, expected[4].data(), counts.data(), displs.data(),
                 MPI_INT, m);
  MPI_Gatherv(mine.data(), count, MPI_INT, expected[5].data(), counts.data(), displs.data(),
              MPI_INT, 0, m);
  MPI_Alltoallv(spaced_blocks.data(), counts.data(), displs.data(), MPI_INT, expected[6].data(),
                counts.data(), displs.data(), MPI_INT, m);
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], expected[i]) << "collective " << i;
}

// A repeated call reuses the schedule built for the same counts and displacements: arrays changed
// in place between calls (same addresses, other values) must still be followed.
TEST_F(ScommTest, RepeatedVectorFormsFollowCountsChangedInPlace) {
  const CommPair pair{SCOMM_COMM_WORLD, MPI_COMM_WORLD, "world"};
  const int size = world_size_, rank = world_rank_;
  Vector v = vector_layout(size, 0, 1);
  Exchange e = exchange_layout(size, rank, 0, 0, false);
  for (const int salt : {1, 2, 2, 1}) {
    const Vector next = vector_layout(size, salt, 1);
    std::copy(next.counts.begin(), next.counts.end(), v.counts.begin());  // v's arrays stay put
    std::copy(next.displs.begin(), next.displs.end(), v.displs.begin());
    const int count = v.counts[static_cast<std::size_t>(rank)];
    const auto mine = pattern(rank, static_cast<std::size_t>(count), salt);
    const std::vector<int> init(static_cast<std::size_t>(next.total), -1);
    const std::string what = "salt " + std::to_string(salt);
    expect_like_mpi(
        init,
        [&](int* recv, Mode mode) {
          return RUN(Gatherv, Igatherv, mine.data(), count, MPI_INT, recv, v.counts.data(),
                     v.displs.data(), MPI_INT, 0);
        },
        what + " gatherv");
    expect_like_mpi(
        init,
        [&](int* recv, Mode mode) {
          return RUN(Allgatherv, Iallgatherv, mine.data(), count, MPI_INT, recv, v.counts.data(),
                     v.displs.data(), MPI_INT);
        },
        what + " allgatherv");
    const Exchange changed = exchange_layout(size, rank, salt, 0, false);
    std::copy(changed.send.counts.begin(), changed.send.counts.end(), e.send.counts.begin());
    std::copy(changed.send.displs.begin(), changed.send.displs.end(), e.send.displs.begin());
    std::copy(changed.recv.counts.begin(), changed.recv.counts.end(), e.recv.counts.begin());
    std::copy(changed.recv.displs.begin(), changed.recv.displs.end(), e.recv.displs.begin());
    const auto blocks = pattern(rank, static_cast<std::size_t>(changed.send.total), salt);
    expect_like_mpi(
        std::vector<int>(static_cast<std::size_t>(changed.recv.total), -1),
        [&](int* recv, Mode mode) {
          return RUN(Alltoallv, Ialltoallv, blocks.data(), e.send.counts.data(),
                     e.send.displs.data(), MPI_INT, recv, e.recv.counts.data(),
                     e.recv.displs.data(), MPI_INT);
        },
        what + " alltoallv");
  }
}

// A blocking v-form repeated with the same arguments is replayed (coll/replay.hpp): the data,
// counts and displacements, changed in place between calls (same addresses), are read anew.
// Every buffer and array stays where it is.
TEST_F(ScommTest, RepeatedBlockingVectorFormsReadTheirArraysAnew) {
  const CommPair pair{SCOMM_COMM_WORLD, MPI_COMM_WORLD, "world"};
  const int size = world_size_, rank = world_rank_;
  const auto capacity = static_cast<std::size_t>(16 * size);
  std::vector<int> send(capacity), got(capacity), expected(capacity);
  Vector v = vector_layout(size, 0, 1);
  Exchange e = exchange_layout(size, rank, 0, 0, false);
  const auto like_mpi = [&](const std::function<int(int*, Mode)>& run, const std::string& what) {
    std::fill(expected.begin(), expected.end(), -1);
    std::fill(got.begin(), got.end(), -1);
    ASSERT_EQ(run(expected.data(), Mode::kMpi), MPI_SUCCESS) << what;
    ASSERT_EQ(run(got.data(), Mode::kBlocking), SCOMM_SUCCESS) << what;
    ASSERT_EQ(got, expected) << what;
  };
  // Displacements alone change between the third and fourth calls (the arguments stay the same
  // at every rank), counts too between the fifth and sixth.
  for (const auto& [salt, gap] :
       {std::pair{1, 1}, {1, 1}, {1, 2}, {1, 2}, {2, 2}, {2, 2}, {2, 1}}) {
    const Vector next = vector_layout(size, salt, gap);
    std::copy(next.counts.begin(), next.counts.end(), v.counts.begin());
    std::copy(next.displs.begin(), next.displs.end(), v.displs.begin());
    const Exchange changed = exchange_layout(size, rank, salt, gap, false);
    for (auto [from, to] : {std::pair{&changed.send, &e.send}, std::pair{&changed.recv, &e.recv}}) {
      std::copy(from->counts.begin(), from->counts.end(), to->counts.begin());
      std::copy(from->displs.begin(), from->displs.end(), to->displs.begin());
    }
    const auto mine = pattern(rank, capacity, salt);
    std::copy(mine.begin(), mine.end(), send.begin());
    const int count = v.counts[static_cast<std::size_t>(rank)];
    const std::string what = " salt " + std::to_string(salt) + " gap " + std::to_string(gap);
    like_mpi(
        [&](int* recv, Mode mode) {
          return RUN(Gatherv, Igatherv, send.data(), count, MPI_INT, recv, v.counts.data(),
                     v.displs.data(), MPI_INT, 0);
        },
        "gatherv" + what);
    like_mpi(
        [&](int* recv, Mode mode) {
          return RUN(Scatterv, Iscatterv, send.data(), v.counts.data(), v.displs.data(), MPI_INT,
                     recv, count, MPI_INT, 0);
        },
        "scatterv" + what);
    like_mpi(
        [&](int* recv, Mode mode) {
          return RUN(Allgatherv, Iallgatherv, send.data(), count, MPI_INT, recv, v.counts.data(),
                     v.displs.data(), MPI_INT);
        },
        "allgatherv" + what);
    like_mpi(
        [&](int* recv, Mode mode) {
          return RUN(Alltoallv, Ialltoallv, send.data(), e.send.counts.data(), e.send.displs.data(),
                     MPI_INT, recv, e.recv.counts.data(), e.recv.displs.data(), MPI_INT);
        },
        "alltoallv" + what);
    like_mpi(
        [&](int* recv, Mode mode) {
          return RUN(Reduce_scatter, Ireduce_scatter, send.data(), recv, v.counts.data(), MPI_INT,
                     MPI_SUM);
        },
        "reduce_scatter" + what);
  }
}

// A broadcast longer than the others, scattered and gathered back in pieces: every count around
// multiples of the size, fewer elements than ranks included.
TEST_F(ScommTest, ScatterAllgatherBroadcastOfEveryRemainder) {
  const int p = world_size_;
  reinit_with("SCOMM_COLL_BCAST", "scatter_allgather");
  for (int count = 0; count <= 3 * p + 1; ++count)
    for (int root = 0; root < p; root += 2) {
      std::vector<int> data = pattern(world_rank_ == root ? 0 : world_rank_ + 1,
                                      static_cast<std::size_t>(count), count);
      ASSERT_EQ(SCOMM_Bcast(data.data(), count, MPI_INT, root, SCOMM_COMM_WORLD), SCOMM_SUCCESS);
      ASSERT_EQ(data, pattern(0, static_cast<std::size_t>(count), count)) << count;
    }
}

// ----- bad input

class DataErrorsTest : public ScommTest {
 protected:
  void SetUp() override {
    ScommTest::SetUp();
    SCOMM_Comm_set_errhandler(SCOMM_COMM_WORLD, SCOMM_ERRORS_RETURN);
  }
};

TEST_F(DataErrorsTest, BadArgumentsAreReportedWithTheirClass) {
  const SCOMM_Comm w = SCOMM_COMM_WORLD;
  const int p = world_size_;
  std::vector<int> a(static_cast<std::size_t>(p) * 4, 1), b(a.size(), 0);
  std::vector<int> counts(static_cast<std::size_t>(p), 1), displs(counts.size(), 0);
  auto err = [](int rc) { return error_class_of(rc); };
  EXPECT_EQ(err(SCOMM_Gather(a.data(), 1, MPI_INT, b.data(), 1, MPI_INT, p, w)), SCOMM_ERR_ROOT);
  EXPECT_EQ(err(SCOMM_Scatter(a.data(), 1, MPI_INT, b.data(), 1, MPI_INT, -1, w)), SCOMM_ERR_ROOT);
  EXPECT_EQ(err(SCOMM_Gatherv(a.data(), 1, MPI_INT, b.data(), counts.data(), displs.data(), MPI_INT,
                              p, w)),
            SCOMM_ERR_ROOT);
  EXPECT_EQ(err(SCOMM_Gather(a.data(), -1, MPI_INT, b.data(), -1, MPI_INT, 0, w)), SCOMM_ERR_COUNT);
  EXPECT_EQ(err(SCOMM_Scatter(a.data(), -2, MPI_INT, b.data(), -2, MPI_INT, 0, w)),
            SCOMM_ERR_COUNT);
  EXPECT_EQ(err(SCOMM_Allgather(a.data(), -1, MPI_INT, b.data(), -1, MPI_INT, w)), SCOMM_ERR_COUNT);
  EXPECT_EQ(err(SCOMM_Alltoall(a.data(), 1, MPI_DATATYPE_NULL, b.data(), 1, MPI_DATATYPE_NULL, w)),
            SCOMM_ERR_TYPE);
  EXPECT_EQ(err(SCOMM_Alltoall(a.data(), 1, MPI_INT, a.data(), 1, MPI_INT, w)), SCOMM_ERR_BUFFER);
  EXPECT_EQ(err(SCOMM_Allgather(a.data(), 1, MPI_INT, SCOMM_IN_PLACE, 1, MPI_INT, w)),
            SCOMM_ERR_BUFFER);
  EXPECT_EQ(err(SCOMM_Allgather(a.data(), 1, MPI_INT, nullptr, 1, MPI_INT, w)), SCOMM_ERR_BUFFER);
  EXPECT_EQ(
      err(SCOMM_Allgatherv(a.data(), 1, MPI_INT, b.data(), nullptr, displs.data(), MPI_INT, w)),
      SCOMM_ERR_ARG);
  EXPECT_EQ(err(SCOMM_Alltoallv(a.data(), counts.data(), nullptr, MPI_INT, b.data(), counts.data(),
                                displs.data(), MPI_INT, w)),
            SCOMM_ERR_ARG);
  const std::vector<MPI_Datatype> ints(counts.size(), MPI_INT);
  std::vector<MPI_Datatype> one_null = ints;
  one_null.back() = MPI_DATATYPE_NULL;
  EXPECT_EQ(err(SCOMM_Alltoallw(a.data(), counts.data(), displs.data(), nullptr, b.data(),
                                counts.data(), displs.data(), ints.data(), w)),
            SCOMM_ERR_ARG);
  EXPECT_EQ(err(SCOMM_Alltoallw(a.data(), counts.data(), displs.data(), ints.data(), b.data(),
                                counts.data(), displs.data(), one_null.data(), w)),
            SCOMM_ERR_TYPE);
  EXPECT_EQ(err(SCOMM_Alltoallw(a.data(), counts.data(), displs.data(), ints.data(), a.data(),
                                counts.data(), displs.data(), ints.data(), w)),
            SCOMM_ERR_BUFFER);
  counts[0] = -1;
  EXPECT_EQ(err(SCOMM_Allgatherv(a.data(), 1, MPI_INT, b.data(), counts.data(), displs.data(),
                                 MPI_INT, w)),
            SCOMM_ERR_COUNT);
  EXPECT_EQ(err(SCOMM_Alltoallw(SCOMM_IN_PLACE, nullptr, nullptr, nullptr, b.data(), counts.data(),
                                displs.data(), ints.data(), w)),
            SCOMM_ERR_COUNT);
  SCOMM_Request request = SCOMM_REQUEST_NULL;
  EXPECT_EQ(err(SCOMM_Igather(a.data(), 1, MPI_INT, b.data(), 1, MPI_INT, 0, w, nullptr)),
            SCOMM_ERR_ARG);
  EXPECT_EQ(err(SCOMM_Ialltoall(a.data(), -1, MPI_INT, b.data(), -1, MPI_INT, w, &request)),
            SCOMM_ERR_COUNT);
  EXPECT_EQ(request, SCOMM_REQUEST_NULL);
  // Every rank made the same calls, all rejected before communicating: the world still works.
  EXPECT_EQ(SCOMM_Barrier(w), SCOMM_SUCCESS);
}

// A datatype never committed is a type error at every member that passes it, before any message:
// a transfer of it failed at its sender alone, while the receivers waited (the root of a gather),
// and a rank's own copy through MPI_Unpack on MPI_COMM_SELF aborted the job.
TEST_F(DataErrorsTest, AnUncommittedDatatypeFailsEveryMemberBeforeAnyMessage) {
  if (smpi_defect::kUncommittedPackAborts) GTEST_SKIP() << "SMPI's MPI_Pack aborts";
  MPI_Datatype pair = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(2, MPI_INT, &pair);  // never committed
  const SCOMM_Comm w = SCOMM_COMM_WORLD;
  const auto p = static_cast<std::size_t>(world_size_);
  std::vector<int> mine(2, world_rank_), all(2 * p, -1);
  SCOMM_Request request = SCOMM_REQUEST_NULL;
  EXPECT_EQ(error_class_of(SCOMM_Gather(mine.data(), 1, pair, all.data(), 1, pair, 0, w)),
            SCOMM_ERR_TYPE);
  EXPECT_EQ(error_class_of(SCOMM_Allgather(mine.data(), 1, pair, all.data(), 1, pair, w)),
            SCOMM_ERR_TYPE);
  EXPECT_EQ(error_class_of(SCOMM_Bcast(mine.data(), 1, pair, 0, w)), SCOMM_ERR_TYPE);
  EXPECT_EQ(
      error_class_of(SCOMM_Iallgather(mine.data(), 2, MPI_INT, all.data(), 1, pair, w, &request)),
      SCOMM_ERR_TYPE);
  EXPECT_EQ(request, SCOMM_REQUEST_NULL);
  MPI_Type_free(&pair);
  // Nothing was sent: the world's next collective finds only its own messages.
  std::vector<int> ranks(p, -1);
  ASSERT_EQ(SCOMM_Allgather(&world_rank_, 1, MPI_INT, ranks.data(), 1, MPI_INT, w), SCOMM_SUCCESS);
  for (std::size_t r = 0; r < p; ++r) EXPECT_EQ(ranks[r], static_cast<int>(r));
}

// Elements of a type without data are no bytes to copy, also where the two sides' types differ
// (a rank's own block): MPI_Pack refused the null buffer of that empty copy.
TEST_F(DataErrorsTest, ElementsOfAnEmptyTypeCopyNothing) {
  MPI_Datatype empty = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(0, MPI_INT, &empty);
  MPI_Type_commit(&empty);
  const SCOMM_Comm w = SCOMM_COMM_WORLD;
  const auto p = static_cast<std::size_t>(world_size_);
  std::vector<int> send(2 * p, 7), recv(2 * p, -1);
  EXPECT_EQ(SCOMM_Gather(send.data(), 2, empty, recv.data(), 0, MPI_INT, 0, w), SCOMM_SUCCESS);
  EXPECT_EQ(SCOMM_Allgather(send.data(), 1, empty, recv.data(), 0, MPI_INT, w), SCOMM_SUCCESS);
  EXPECT_EQ(SCOMM_Alltoall(send.data(), 1, empty, recv.data(), 0, MPI_INT, w), SCOMM_SUCCESS);
  EXPECT_EQ(SCOMM_Allgather(send.data(), 3, empty, nullptr, 0, MPI_BYTE, w), SCOMM_SUCCESS);
  EXPECT_EQ(recv, std::vector<int>(2 * p, -1));
  MPI_Type_free(&empty);
}

// An empty broadcast named two ways -- elements of a zero-size type at the root, no elements
// elsewhere -- through scomm's algorithms and MPI's own (native, where Open MPI 4.1's
// MPI_Ibcast hung on it, and its next broadcast got the wrong data), blocking and not.
TEST_F(DataErrorsTest, AnEmptyBroadcastNamedTwoWays) {
  MPI_Datatype empty = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(0, MPI_INT, &empty);
  MPI_Type_commit(&empty);
  const int root = world_size_ - 1;
  for (const char* algorithm : {"binomial", "native"}) {
    reinit_with("SCOMM_COLL_BCAST", algorithm);
    SCOMM_Comm_set_errhandler(SCOMM_COMM_WORLD, SCOMM_ERRORS_RETURN);
    std::array<int, 3> data{1, 2, 3};
    const bool at_root = world_rank_ == root;
    EXPECT_EQ(SCOMM_Bcast(data.data(), at_root ? 3 : 0, at_root ? empty : MPI_INT, root,
                          SCOMM_COMM_WORLD),
              SCOMM_SUCCESS)
        << algorithm;
    SCOMM_Request request = SCOMM_REQUEST_NULL;
    ASSERT_EQ(SCOMM_Ibcast(data.data(), at_root ? 3 : 0, at_root ? empty : MPI_INT, root,
                           SCOMM_COMM_WORLD, &request),
              SCOMM_SUCCESS);
    EXPECT_EQ(SCOMM_Wait(&request, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS) << algorithm;
    EXPECT_EQ(data, (std::array<int, 3>{1, 2, 3})) << algorithm;
    std::array<int, 3> next{};
    if (at_root) next = {4, 5, 6};
    ASSERT_EQ(SCOMM_Bcast(next.data(), 3, MPI_INT, root, SCOMM_COMM_WORLD), SCOMM_SUCCESS);
    EXPECT_EQ(next, (std::array<int, 3>{4, 5, 6})) << algorithm;
  }
  MPI_Type_free(&empty);
}

// What only the root checks: on a communicator of one rank, so that no other rank goes ahead.
TEST_F(DataErrorsTest, RootOnlyArgumentsAreCheckedAtTheRootOnly) {
  SCOMM_Comm self = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_split(SCOMM_COMM_WORLD, world_rank_, 0, &self), SCOMM_SUCCESS);
  SCOMM_Comm_set_errhandler(self, SCOMM_ERRORS_RETURN);
  int value = 7, out = 0, one = 1, zero = 0;
  EXPECT_EQ(
      error_class_of(SCOMM_Gatherv(&value, 1, MPI_INT, &out, nullptr, &zero, MPI_INT, 0, self)),
      SCOMM_ERR_ARG);
  EXPECT_EQ(
      error_class_of(SCOMM_Scatterv(&value, &one, nullptr, MPI_INT, &out, 1, MPI_INT, 0, self)),
      SCOMM_ERR_ARG);
  EXPECT_EQ(error_class_of(SCOMM_Gather(&value, 1, MPI_INT, nullptr, 1, MPI_INT, 0, self)),
            SCOMM_ERR_BUFFER);
  // The root's in-place scatter keeps its block; in-place gather reads it from the output.
  EXPECT_EQ(SCOMM_Scatter(&value, 1, MPI_INT, SCOMM_IN_PLACE, 1, MPI_INT, 0, self), SCOMM_SUCCESS);
  EXPECT_EQ(SCOMM_Gather(SCOMM_IN_PLACE, 1, MPI_INT, &value, 1, MPI_INT, 0, self), SCOMM_SUCCESS);
  EXPECT_EQ(value, 7);
  SCOMM_Comm_free(&self);
}

// Off the root, MPI's non-significant arguments are not looked at: garbage receive arguments of
// gather and send arguments of scatter are fine there.
TEST_F(DataErrorsTest, NonSignificantArgumentsAreIgnored) {
  const int root = world_size_ - 1;
  const bool at_root = world_rank_ == root;
  std::vector<int> all(static_cast<std::size_t>(world_size_), -1);
  int mine = world_rank_;
  ASSERT_EQ(SCOMM_Gather(&mine, 1, MPI_INT, at_root ? all.data() : nullptr, at_root ? 1 : -5,
                         at_root ? MPI_INT : MPI_DATATYPE_NULL, root, SCOMM_COMM_WORLD),
            SCOMM_SUCCESS);
  if (at_root) {
    for (int r = 0; r < world_size_; ++r) EXPECT_EQ(all[static_cast<std::size_t>(r)], r);
  }
  int got = -1;
  ASSERT_EQ(SCOMM_Scatter(at_root ? all.data() : nullptr, at_root ? 1 : -5,
                          at_root ? MPI_INT : MPI_DATATYPE_NULL, &got, 1, MPI_INT, root,
                          SCOMM_COMM_WORLD),
            SCOMM_SUCCESS);
  EXPECT_EQ(got, world_rank_);
}

// A root that scatters more than a rank expects: truncation at that rank.
TEST_F(DataErrorsTest, MismatchedCountsAreTruncationErrors) {
  if (world_size_ < 2) GTEST_SKIP() << "needs two ranks";
  SCOMM_Comm pair = first_pair_returning_errors();
  if (pair == SCOMM_COMM_NULL) return;
  std::vector<int> send(16, 3), recv(8, -1);
  const int recvcount = world_rank_ == 0 ? 8 : 4;
  const int rc = SCOMM_Scatter(send.data(), 8, MPI_INT, recv.data(), recvcount, MPI_INT, 0, pair);
  EXPECT_EQ(error_class_of(rc), world_rank_ == 0 ? SCOMM_SUCCESS : SCOMM_ERR_TRUNCATE);
  for (std::size_t i = 4; i < 8; ++i) EXPECT_EQ(recv[i], world_rank_ == 0 ? 3 : -1);
  SCOMM_Comm_free(&pair);
}

// A root that receives its blocks one by one (short ones, coll/executor.cpp) still takes every
// message of a call in which one was truncated: the next call must find only its own.
TEST_F(DataErrorsTest, ATruncatedGathervLeavesNoMessageBehind) {
  if (world_size_ < 3) GTEST_SKIP() << "needs three ranks";
  const int p = world_size_, rank = world_rank_;
  std::vector<int> counts(static_cast<std::size_t>(p), 1), displs(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) displs[static_cast<std::size_t>(r)] = 2 * r;
  std::vector<int> recv(static_cast<std::size_t>(2 * p), -1);
  const std::array<int, 2> failed{rank, rank};  // rank 1 sends two where the root expects one
  const int rc = SCOMM_Gatherv(failed.data(), rank == 1 ? 2 : 1, MPI_INT, recv.data(),
                               counts.data(), displs.data(), MPI_INT, 0, SCOMM_COMM_WORLD);
  EXPECT_EQ(error_class_of(rc), rank == 0 ? SCOMM_ERR_TRUNCATE : SCOMM_SUCCESS);
  // Calls take their internal tags in turn: one of these has the failed call's.
  for (int call = 0; call <= scomm::context::TagLayout::kSequencedTags; ++call) {
    const int next = 100 + rank + call;
    ASSERT_EQ(SCOMM_Gatherv(&next, 1, MPI_INT, recv.data(), counts.data(), displs.data(), MPI_INT,
                            0, SCOMM_COMM_WORLD),
              SCOMM_SUCCESS);
    if (rank != 0) continue;
    for (int r = 0; r < p; ++r)
      ASSERT_EQ(recv[static_cast<std::size_t>(2 * r)], 100 + r + call) << "rank " << r;
  }
}

}  // namespace
