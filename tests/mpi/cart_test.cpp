// Cartesian communicators against the MPI library's own: the same members, ranks, coordinates,
// shifts and sub-grids for 1-, 2- and 3-dimensional grids, periodic or not, including grids
// smaller than the world; every sub-grid at once carries messages without mixing; bad input.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "scomm_fixture.hpp"
#include "smpi_defects.hpp"

namespace {

struct Shape {
  std::vector<int> dims;
  std::vector<int> periods;
};

// Grids over every process (MPI_Dims_create's shapes in 1-3 dimensions, with each period
// pattern) and a 1-D grid of one process fewer.
std::vector<Shape> shapes(int p) {
  std::vector<Shape> out;
  for (int ndims = 1; ndims <= 3; ++ndims) {
    std::vector<int> dims(static_cast<std::size_t>(ndims), 0);
    MPI_Dims_create(p, ndims, dims.data());
    for (int pattern = 0; pattern < 3; ++pattern) {
      std::vector<int> periods(dims.size());
      for (std::size_t k = 0; k < dims.size(); ++k)
        periods[k] = pattern == 0 ? 0 : pattern == 1 ? 1 : static_cast<int>(k % 2);
      out.push_back({dims, periods});
    }
  }
  if (p > 1) out.push_back({{p - 1}, {0}});
  return out;
}

int ndims_of(const Shape& s) {
  return static_cast<int>(s.dims.size());
}

class CartTest : public ScommTest {
 protected:
  void expect_same_queries(SCOMM_Comm sc, MPI_Comm mc) {
    int nd = 0, mpi_nd = 0;
    ASSERT_EQ(SCOMM_Cartdim_get(sc, &nd), SCOMM_SUCCESS);
    MPI_Cartdim_get(mc, &mpi_nd);
    ASSERT_EQ(nd, mpi_nd);
    const auto n = static_cast<std::size_t>(std::max(nd, 1));
    std::vector<int> dims(n), periods(n), coords(n), mdims(n), mperiods(n), mcoords(n);
    ASSERT_EQ(SCOMM_Cart_get(sc, nd, dims.data(), periods.data(), coords.data()), SCOMM_SUCCESS);
    MPI_Cart_get(mc, nd, mdims.data(), mperiods.data(), mcoords.data());
    EXPECT_EQ(dims, mdims);
    EXPECT_EQ(periods, mperiods);
    EXPECT_EQ(coords, mcoords);
    int size = 0;
    MPI_Comm_size(mc, &size);
    for (int r = 0; r < size; ++r) {
      ASSERT_EQ(SCOMM_Cart_coords(sc, r, nd, coords.data()), SCOMM_SUCCESS);
      MPI_Cart_coords(mc, r, nd, mcoords.data());
      EXPECT_EQ(coords, mcoords) << "rank " << r;
      for (int k = 0; k < nd; ++k)  // a periodic coordinate wraps
        if (periods[static_cast<std::size_t>(k)])
          coords[static_cast<std::size_t>(k)] -= dims[static_cast<std::size_t>(k)];
      int back = -1, mpi_back = -2;
      ASSERT_EQ(SCOMM_Cart_rank(sc, coords.data(), &back), SCOMM_SUCCESS);
      MPI_Cart_rank(mc, coords.data(), &mpi_back);
      EXPECT_EQ(back, mpi_back);
      EXPECT_EQ(back, r);
    }
    for (int direction = 0; direction < nd; ++direction)
      for (int disp = -2; disp <= 3; ++disp) {
        int source = 0, dest = 0, mpi_source = 0, mpi_dest = 0;
        ASSERT_EQ(SCOMM_Cart_shift(sc, direction, disp, &source, &dest), SCOMM_SUCCESS);
        MPI_Cart_shift(mc, direction, disp, &mpi_source, &mpi_dest);
        EXPECT_EQ(source, mpi_source) << "direction " << direction << " disp " << disp;
        EXPECT_EQ(dest, mpi_dest) << "direction " << direction << " disp " << disp;
      }
  }

  // Every sub-grid of `sc`, against MPI_Cart_sub, four alive at a time (a communicator has
  // SCOMM_DERIVE_BITS = 4 local children alive at once by default); a ring in the live ones
  // with one tag, each message checked for the sub-grid it was sent on.
  void expect_same_sub_grids(SCOMM_Comm sc, MPI_Comm mc, int nd) {
    constexpr int kAlive = 4;
    for (int first = 0; first < (1 << nd); first += kAlive) {
      std::vector<SCOMM_Comm> subs;
      for (int mask = first; mask < std::min(first + kAlive, 1 << nd); ++mask)
        subs.push_back(sub_grid(sc, mc, nd, mask));
      expect_rings_separate(subs);
      for (SCOMM_Comm& sub : subs) SCOMM_Comm_free(&sub);
    }
  }

  // MPI_Cart_sub's definition: a grid of the kept dimensions over the sub-grid's members, in
  // the same order (mpi_sub itself when nothing is kept).
  static MPI_Comm defined_sub_grid(MPI_Comm mc, MPI_Comm mpi_sub, const std::vector<int>& remain) {
    const int nd = static_cast<int>(remain.size());
    std::vector<int> dims(remain.size()), periods(dims.size()), coords(dims.size());
    MPI_Cart_get(mc, nd, dims.data(), periods.data(), coords.data());
    std::vector<int> kept_dims, kept_periods;
    for (std::size_t k = 0; k < remain.size(); ++k)
      if (remain[k]) {
        kept_dims.push_back(dims[k]);
        kept_periods.push_back(periods[k]);
      }
    if (kept_dims.empty()) return mpi_sub;
    MPI_Comm grid = MPI_COMM_NULL;
    MPI_Cart_create(mpi_sub, static_cast<int>(kept_dims.size()), kept_dims.data(),
                    kept_periods.data(), 0, &grid);
    return grid;
  }

  SCOMM_Comm sub_grid(SCOMM_Comm sc, MPI_Comm mc, int nd, int mask) {
    std::vector<int> remain(static_cast<std::size_t>(std::max(nd, 1)));
    for (int k = 0; k < nd; ++k) remain[static_cast<std::size_t>(k)] = (mask >> k) & 1;
    SCOPED_TRACE("sub-grid mask " + std::to_string(mask));
    SCOMM_Comm sub = SCOMM_COMM_NULL;
    MPI_Comm mpi_sub = MPI_COMM_NULL;
    EXPECT_EQ(SCOMM_Cart_sub(sc, remain.data(), &sub), SCOMM_SUCCESS);
    MPI_Cart_sub(mc, remain.data(), &mpi_sub);
    if (mpi_sub == MPI_COMM_NULL) {
      // MPICH 4.0 gives the zero-dimensional sub-grid (nothing kept) to rank 0 alone; MPI says
      // every process gets one of its own, as scomm does.
      EXPECT_EQ(mask, 0);
      EXPECT_EQ(members_of(sub), std::vector<int>{world_rank_});
      int nd0 = -1;
      EXPECT_EQ(SCOMM_Cartdim_get(sub, &nd0), SCOMM_SUCCESS);
      EXPECT_EQ(nd0, 0);
      return sub;
    }
    EXPECT_EQ(members_of(sub), members_of_mpi(mpi_sub)) << "mask " << mask;
    if (smpi_defect::kCartSub) {
      MPI_Comm reference = defined_sub_grid(mc, mpi_sub, remain);
      expect_same_queries(sub, reference);
      if (reference != mpi_sub) MPI_Comm_free(&reference);
    } else {
      expect_same_queries(sub, mpi_sub);
    }
    SCOMM_Group group = SCOMM_GROUP_NULL;
    SCOMM_Comm_group(sub, &group);
    std::size_t bytes = 0;
    SCOMM_Group_memory(group, &bytes);
    EXPECT_LE(bytes, 64u) << "mask " << mask;  // a box, whatever the grid
    SCOMM_Group_free(&group);
    MPI_Comm_free(&mpi_sub);
    return sub;
  }

  void expect_rings_separate(const std::vector<SCOMM_Comm>& subs) {
    std::vector<std::array<int, 2>> got(subs.size()), sent(subs.size());
    std::vector<SCOMM_Request> requests;
    for (std::size_t m = 0; m < subs.size(); ++m) {
      int rank = 0, size = 0;
      SCOMM_Comm_rank(subs[m], &rank);
      SCOMM_Comm_size(subs[m], &size);
      requests.emplace_back();
      SCOMM_Irecv(got[m].data(), 2, MPI_INT, (rank + size - 1) % size, 3, subs[m],
                  &requests.back());
      sent[m] = {static_cast<int>(m), world_rank_};
      requests.emplace_back();
      SCOMM_Isend(sent[m].data(), 2, MPI_INT, (rank + 1) % size, 3, subs[m], &requests.back());
    }
    ASSERT_EQ(
        SCOMM_Waitall(static_cast<int>(requests.size()), requests.data(), SCOMM_STATUSES_IGNORE),
        SCOMM_SUCCESS);
    for (std::size_t m = 0; m < subs.size(); ++m) {
      const std::vector<int> members = members_of(subs[m]);
      int rank = 0;
      SCOMM_Comm_rank(subs[m], &rank);
      const int size = static_cast<int>(members.size());
      EXPECT_EQ(got[m][0], static_cast<int>(m)) << "a message crossed sub-grids";
      EXPECT_EQ(got[m][1], members[static_cast<std::size_t>((rank + size - 1) % size)]);
    }
  }
};

TEST_F(CartTest, GridsAndSubGridsMatchMpi) {
  for (const Shape& s : shapes(world_size_)) {
    SCOPED_TRACE("grid of " + std::to_string(ndims_of(s)) + " dimensions, first " +
                 std::to_string(s.dims[0]) + " periodic " + std::to_string(s.periods[0]));
    SCOMM_Comm sc = SCOMM_COMM_NULL;
    MPI_Comm mc = MPI_COMM_NULL;
    ASSERT_EQ(
        SCOMM_Cart_create(SCOMM_COMM_WORLD, ndims_of(s), s.dims.data(), s.periods.data(), 0, &sc),
        SCOMM_SUCCESS);
    MPI_Cart_create(MPI_COMM_WORLD, ndims_of(s), s.dims.data(), s.periods.data(), 0, &mc);
    ASSERT_EQ(sc == SCOMM_COMM_NULL, mc == MPI_COMM_NULL);
    if (sc == SCOMM_COMM_NULL) continue;
    EXPECT_EQ(members_of(sc), members_of_mpi(mc));
    expect_same_queries(sc, mc);
    expect_same_sub_grids(sc, mc, ndims_of(s));
    SCOMM_Comm_free(&sc);
    MPI_Comm_free(&mc);
  }
}

TEST_F(CartTest, DimsCreateMatchesMpi) {
  for (int nnodes : {1, 6, 12, 30, 64, 97, world_size_})
    for (int ndims = 1; ndims <= 4; ++ndims) {
      std::vector<int> ours(static_cast<std::size_t>(ndims), 0), theirs = ours;
      if (ndims > 1) ours[1] = theirs[1] = (nnodes % 2 == 0) ? 2 : 0;  // one dimension fixed
      ASSERT_EQ(SCOMM_Dims_create(nnodes, ndims, ours.data()), SCOMM_SUCCESS);
      MPI_Dims_create(nnodes, ndims, theirs.data());
      EXPECT_EQ(ours, theirs) << nnodes << " nodes, " << ndims << " dimensions";
    }
}

TEST_F(CartTest, DuplicatesKeepTheTopology) {
  const int dims[1] = {world_size_}, periods[1] = {1};
  SCOMM_Comm cart = SCOMM_COMM_NULL, dup = SCOMM_COMM_NULL, idup = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Cart_create(SCOMM_COMM_WORLD, 1, dims, periods, 1, &cart), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_dup(cart, &dup), SCOMM_SUCCESS);
  SCOMM_Request request = SCOMM_REQUEST_NULL;
  ASSERT_EQ(SCOMM_Comm_idup(cart, &idup, &request), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Wait(&request, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  for (SCOMM_Comm c : {dup, idup}) {
    int source = 0, dest = 0;
    ASSERT_EQ(SCOMM_Cart_shift(c, 0, 1, &source, &dest), SCOMM_SUCCESS);
    EXPECT_EQ(dest, (world_rank_ + 1) % world_size_);
    EXPECT_EQ(source, (world_rank_ + world_size_ - 1) % world_size_);
  }
  int nd = -1;
  SCOMM_Comm split = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_split(cart, 0, world_rank_, &split), SCOMM_SUCCESS);
  SCOMM_Comm_set_errhandler(split, SCOMM_ERRORS_RETURN);
  EXPECT_EQ(error_class_of(SCOMM_Cartdim_get(split, &nd)), SCOMM_ERR_TOPOLOGY);  // split: none
  for (SCOMM_Comm* c : {&split, &idup, &dup, &cart}) SCOMM_Comm_free(c);
}

TEST_F(CartTest, BadInputIsReported) {
  SCOMM_Comm_set_errhandler(SCOMM_COMM_WORLD, SCOMM_ERRORS_RETURN);
  SCOMM_Comm out = SCOMM_COMM_NULL;
  const int too_many[1] = {world_size_ + 1}, zero[2] = {1, 0}, periods[2] = {0, 0};
  EXPECT_EQ(error_class_of(SCOMM_Cart_create(SCOMM_COMM_WORLD, 1, too_many, periods, 0, &out)),
            SCOMM_ERR_ARG);
  EXPECT_EQ(error_class_of(SCOMM_Cart_create(SCOMM_COMM_WORLD, 2, zero, periods, 0, &out)),
            SCOMM_ERR_ARG);
  EXPECT_EQ(error_class_of(SCOMM_Cart_create(SCOMM_COMM_WORLD, -1, zero, periods, 0, &out)),
            SCOMM_ERR_ARG);
  EXPECT_EQ(error_class_of(SCOMM_Cart_create(SCOMM_COMM_WORLD, 1, nullptr, periods, 0, &out)),
            SCOMM_ERR_ARG);
  int coords[2] = {0, 0}, rank = 0, source = 0, dest = 0, nd = 0;
  EXPECT_EQ(error_class_of(SCOMM_Cart_coords(SCOMM_COMM_WORLD, 0, 1, coords)), SCOMM_ERR_TOPOLOGY);
  EXPECT_EQ(error_class_of(SCOMM_Cartdim_get(SCOMM_COMM_WORLD, &nd)), SCOMM_ERR_TOPOLOGY);
  std::vector<int> fixed = {world_size_ + 1, 0};
  EXPECT_EQ(error_class_of(SCOMM_Dims_create(world_size_, 2, fixed.data())), SCOMM_ERR_ARG);
  EXPECT_EQ(error_class_of(SCOMM_Dims_create(0, 2, fixed.data())), SCOMM_ERR_ARG);
  // Every dimension fixed, dividing nnodes but not making it (Open MPI's MPI_Dims_create raises
  // this on MPI_COMM_WORLD's fatal handler; MPICH 4.0's returns success).
  std::vector<int> all_fixed = {2, 1};
  EXPECT_EQ(error_class_of(SCOMM_Dims_create(4, 2, all_fixed.data())), SCOMM_ERR_ARG);
  EXPECT_EQ(all_fixed, (std::vector<int>{2, 1}));
  all_fixed = {2, 2};
  EXPECT_EQ(SCOMM_Dims_create(4, 2, all_fixed.data()), SCOMM_SUCCESS);

  const int line[1] = {world_size_};
  SCOMM_Comm cart = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Cart_create(SCOMM_COMM_WORLD, 1, line, periods, 0, &cart), SCOMM_SUCCESS);
  SCOMM_Comm_set_errhandler(cart, SCOMM_ERRORS_RETURN);
  EXPECT_EQ(error_class_of(SCOMM_Cart_coords(cart, world_size_, 1, coords)), SCOMM_ERR_RANK);
  EXPECT_EQ(error_class_of(SCOMM_Cart_coords(cart, 0, 0, coords)), SCOMM_ERR_ARG);
  coords[0] = world_size_;  // outside a non-periodic dimension
  EXPECT_EQ(error_class_of(SCOMM_Cart_rank(cart, coords, &rank)), SCOMM_ERR_RANK);
  EXPECT_EQ(error_class_of(SCOMM_Cart_shift(cart, 1, 1, &source, &dest)), SCOMM_ERR_ARG);
  EXPECT_EQ(error_class_of(SCOMM_Cart_sub(cart, nullptr, &out)), SCOMM_ERR_ARG);
  // Off the edge of a non-periodic line: MPI_PROC_NULL, not an error.
  ASSERT_EQ(SCOMM_Cart_shift(cart, 0, world_size_, &source, &dest), SCOMM_SUCCESS);
  EXPECT_EQ(source, SCOMM_PROC_NULL);
  EXPECT_EQ(dest, SCOMM_PROC_NULL);
  SCOMM_Comm_free(&cart);
}

}  // namespace
