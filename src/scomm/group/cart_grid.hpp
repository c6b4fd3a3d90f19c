// A Cartesian grid of processes numbered as MPI numbers them: row-major, the last dimension
// varying fastest. The arithmetic of MPI_Cart_coords / _rank / _shift / _sub, without MPI: a
// sub-grid is a box over the grid's ranks, so its communicator's map stays constant-size.
#pragma once

#include <span>
#include <utility>
#include <vector>

#include "scomm/group/box.hpp"
#include "scomm/group/rank.hpp"

namespace scomm::group {

class CartGrid {
 public:
  // Error(kArg) for a negative dimension count, a dimension below 1 or more than 2^31 - 1
  // points; zero dimensions make a grid of one point (MPI's zero-dimensional topology).
  CartGrid(std::vector<int> dims, std::vector<bool> periods);

  int ndims() const noexcept { return static_cast<int>(dims_.size()); }
  Rank size() const noexcept { return size_; }
  const std::vector<int>& dims() const noexcept { return dims_; }
  const std::vector<bool>& periods() const noexcept { return periods_; }

  // The coordinates of `rank` (0 <= rank < size()), ndims() of them.
  void coords_of(Rank rank, std::span<int> coords) const;
  // The rank at `coords` (ndims() of them); periodic dimensions wrap, and Error(kRank) for a
  // coordinate outside a non-periodic one.
  Rank rank_at(std::span<const int> coords) const;
  // MPI_Cart_shift: {source, dest} of `rank` shifted by `disp` along `direction`; kUndefined off
  // the edge of a non-periodic dimension. Error(kArg) for a direction outside [0, ndims()).
  std::pair<Rank, Rank> shift(Rank rank, int direction, int disp) const;

  // The sub-grid through `rank` that keeps the dimensions with remain[k]: the box of its
  // members over this grid's ranks in the sub-grid's own order, and the caller's index there.
  struct Sub {
    std::vector<int> dims;
    std::vector<bool> periods;
    std::vector<BoxDim> box;  // fastest first, over this grid's ranks
    Rank base = 0;            // this grid's rank of the sub-grid's rank 0
    Rank index = 0;           // the caller's rank in the sub-grid
  };
  Sub sub(Rank rank, const std::vector<bool>& remain) const;

 private:
  std::vector<int> dims_;
  std::vector<bool> periods_;
  std::vector<Rank> strides_;  // ranks between neighbours along each dimension
  Rank size_ = 1;
};

}  // namespace scomm::group
