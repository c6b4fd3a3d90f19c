#include "scomm/group/cart_grid.hpp"

#include <limits>
#include <string>

#include "scomm/base/error.hpp"

namespace scomm::group {

CartGrid::CartGrid(std::vector<int> dims, std::vector<bool> periods)
    : dims_(std::move(dims)), periods_(std::move(periods)), strides_(dims_.size()) {
  if (periods_.size() != dims_.size())
    throw Error(ErrorClass::kArg, "periods and dims differ in length");
  std::int64_t size = 1;
  for (std::size_t k = dims_.size(); k-- > 0;) {
    if (dims_[k] < 1)
      throw Error(ErrorClass::kArg, "dimension " + std::to_string(k) + " has extent " +
                                        std::to_string(dims_[k]) + " (at least 1 needed)");
    strides_[k] = static_cast<Rank>(size);
    size *= dims_[k];
    if (size > std::numeric_limits<Rank>::max())
      throw Error(ErrorClass::kArg, "the grid has more than 2^31 - 1 points");
  }
  size_ = static_cast<Rank>(size);
}

void CartGrid::coords_of(Rank rank, std::span<int> coords) const {
  for (std::size_t k = 0; k < dims_.size(); ++k) coords[k] = (rank / strides_[k]) % dims_[k];
}

Rank CartGrid::rank_at(std::span<const int> coords) const {
  std::int64_t rank = 0;
  for (std::size_t k = 0; k < dims_.size(); ++k) {
    int c = coords[k];
    if (periods_[k])
      c = ((c % dims_[k]) + dims_[k]) % dims_[k];
    else if (c < 0 || c >= dims_[k])
      throw Error(ErrorClass::kRank, "coordinate " + std::to_string(c) + " of dimension " +
                                         std::to_string(k) + " is outside [0, " +
                                         std::to_string(dims_[k]) + ") and it is not periodic");
    rank += std::int64_t{c} * strides_[k];
  }
  return static_cast<Rank>(rank);
}

std::pair<Rank, Rank> CartGrid::shift(Rank rank, int direction, int disp) const {
  if (direction < 0 || direction >= ndims())
    throw Error(ErrorClass::kArg, "direction " + std::to_string(direction) + " of a " +
                                      std::to_string(ndims()) + "-dimensional grid");
  const auto k = static_cast<std::size_t>(direction);
  const int extent = dims_[k];
  const int c = (rank / strides_[k]) % extent;
  const Rank without = rank - c * strides_[k];
  auto along = [&](std::int64_t to) {
    if (periods_[k]) to = ((to % extent) + extent) % extent;
    if (to < 0 || to >= extent) return kUndefined;
    return static_cast<Rank>(without + to * strides_[k]);
  };
  return {along(std::int64_t{c} - disp), along(std::int64_t{c} + disp)};
}

CartGrid::Sub CartGrid::sub(Rank rank, const std::vector<bool>& remain) const {
  Sub sub;
  Rank index_stride = 1;
  for (std::size_t k = dims_.size(); k-- > 0;) {
    const int c = (rank / strides_[k]) % dims_[k];
    if (remain[k]) {
      sub.box.push_back({dims_[k], strides_[k]});
      sub.index += c * index_stride;
      index_stride *= dims_[k];
    } else {
      sub.base += c * strides_[k];
    }
  }
  for (std::size_t k = 0; k < dims_.size(); ++k)
    if (remain[k]) {
      sub.dims.push_back(dims_[k]);
      sub.periods.push_back(periods_[k]);
    }
  return sub;
}

}  // namespace scomm::group
