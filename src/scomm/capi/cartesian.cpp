// SCOMM_Cart_* and SCOMM_Dims_create: the grid arithmetic of the group layer, the communicators
// of the comm layer, which keeps each communicator's grid.
#include <string>
#include <vector>

#include "scomm.h"
#include "scomm/capi/context.hpp"
#include "scomm/comm/cartesian.hpp"

namespace {

using namespace scomm::capi;
using scomm::Error;
using scomm::ErrorClass;
namespace comm = scomm::comm;
namespace group = scomm::group;

std::vector<bool> flags(int n, const int* values, const char* what) {
  if (n > 0) require(values, what);
  return std::vector<bool>(values, values + n);
}

void check_maxdims(int maxdims, const group::CartGrid& grid) {
  if (maxdims < grid.ndims())
    throw Error(ErrorClass::kArg, "maxdims " + std::to_string(maxdims) + " below the grid's " +
                                      std::to_string(grid.ndims()) + " dimensions");
}

void check_rank(int rank, const group::CartGrid& grid) {
  if (rank < 0 || rank >= grid.size())
    throw Error(ErrorClass::kRank, "rank " + std::to_string(rank) + " of a grid of " +
                                       std::to_string(grid.size()) + " points");
}

// MPI_Dims_create's rules, checked here: MPI_Dims_create has no communicator, so its failures
// would go to MPI_COMM_WORLD's handler.
void check_dims_create(int nnodes, int ndims, const int dims[]) {
  if (nnodes < 1 || ndims < 0)
    throw Error(ErrorClass::kArg, "nnodes " + std::to_string(nnodes) + ", ndims " +
                                      std::to_string(ndims) + " (nnodes >= 1, ndims >= 0)");
  if (ndims > 0) require(dims, "dims");
  long long fixed = 1;
  bool free_dimension = false;
  for (int k = 0; k < ndims; ++k) {
    if (dims[k] < 0) throw Error(ErrorClass::kArg, "negative dims[" + std::to_string(k) + "]");
    if (dims[k] > 0) fixed *= dims[k];
    free_dimension = free_dimension || dims[k] == 0;
    if (fixed > nnodes) break;
  }
  if (nnodes % fixed != 0)
    throw Error(ErrorClass::kArg, "the fixed dims do not divide nnodes " + std::to_string(nnodes));
  if (!free_dimension && ndims > 0 && fixed != nnodes)  // none left to make up the rest
    throw Error(ErrorClass::kArg,
                "every dims is fixed, and their product is not nnodes " + std::to_string(nnodes));
}

}  // namespace

extern "C" {

int SCOMM_Cart_create(SCOMM_Comm comm_old, int ndims, const int dims[], const int periods[],
                      int /*reorder: scomm keeps the ranks, which MPI allows*/,
                      SCOMM_Comm* comm_cart) {
  return on_comm("SCOMM_Cart_create", comm_old, [&](CommEntry& e) {
    require(comm_cart, "comm_cart");
    if (ndims < 0) throw Error(ErrorClass::kArg, "ndims " + std::to_string(ndims));
    if (ndims > 0) require(dims, "dims");
    group::CartGrid grid(std::vector<int>(dims, dims + ndims), flags(ndims, periods, "periods"));
    *comm_cart = new_comm_handle(
        comm::cart_create(runtime(), e.comm, std::move(grid), context().map_policy), e.errhandler);
  });
}

int SCOMM_Cart_sub(SCOMM_Comm c, const int remain_dims[], SCOMM_Comm* newcomm) {
  return on_comm("SCOMM_Cart_sub", c, [&](CommEntry& e) {
    require(newcomm, "newcomm");
    const int ndims = comm::grid_of(e.comm).ndims();
    *newcomm =
        new_comm_handle(comm::cart_sub(runtime(), e.comm, flags(ndims, remain_dims, "remain_dims"),
                                       context().map_policy),
                        e.errhandler);
  });
}

int SCOMM_Cart_coords(SCOMM_Comm c, int rank, int maxdims, int coords[]) {
  return on_comm("SCOMM_Cart_coords", c, [&](CommEntry& e) {
    const group::CartGrid& grid = comm::grid_of(e.comm);
    check_rank(rank, grid);
    check_maxdims(maxdims, grid);
    if (grid.ndims() > 0) require(coords, "coords");
    grid.coords_of(rank, std::span(coords, static_cast<std::size_t>(grid.ndims())));
  });
}

int SCOMM_Cart_rank(SCOMM_Comm c, const int coords[], int* rank) {
  return on_comm("SCOMM_Cart_rank", c, [&](CommEntry& e) {
    require(rank, "rank");
    const group::CartGrid& grid = comm::grid_of(e.comm);
    if (grid.ndims() > 0) require(coords, "coords");
    *rank = grid.rank_at(std::span(coords, static_cast<std::size_t>(grid.ndims())));
  });
}

int SCOMM_Cart_shift(SCOMM_Comm c, int direction, int disp, int* rank_source, int* rank_dest) {
  return on_comm("SCOMM_Cart_shift", c, [&](CommEntry& e) {
    require(rank_source, "rank_source");
    require(rank_dest, "rank_dest");
    const auto [source, dest] = comm::grid_of(e.comm).shift(e.comm.rank(), direction, disp);
    *rank_source = source == group::kUndefined ? SCOMM_PROC_NULL : source;
    *rank_dest = dest == group::kUndefined ? SCOMM_PROC_NULL : dest;
  });
}

int SCOMM_Cart_get(SCOMM_Comm c, int maxdims, int dims[], int periods[], int coords[]) {
  return on_comm("SCOMM_Cart_get", c, [&](CommEntry& e) {
    const group::CartGrid& grid = comm::grid_of(e.comm);
    check_maxdims(maxdims, grid);
    const auto n = static_cast<std::size_t>(grid.ndims());
    if (n == 0) return;
    require(dims, "dims");
    require(periods, "periods");
    require(coords, "coords");
    for (std::size_t k = 0; k < n; ++k) {
      dims[k] = grid.dims()[k];
      periods[k] = grid.periods()[k] ? 1 : 0;
    }
    grid.coords_of(e.comm.rank(), std::span(coords, n));
  });
}

int SCOMM_Cartdim_get(SCOMM_Comm c, int* ndims) {
  return on_comm("SCOMM_Cartdim_get", c, [&](CommEntry& e) {
    require(ndims, "ndims");
    *ndims = comm::grid_of(e.comm).ndims();
  });
}

int SCOMM_Dims_create(int nnodes, int ndims, int dims[]) {
  return guarded("SCOMM_Dims_create", [&] {
    check_dims_create(nnodes, ndims, dims);
    if (ndims > 0 && MPI_Dims_create(nnodes, ndims, dims) != MPI_SUCCESS)
      throw Error(ErrorClass::kArg, "MPI_Dims_create failed");
  });
}

}  // extern "C"
