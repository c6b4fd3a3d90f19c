// direct: the identity map 0..n-1 (MPI_COMM_WORLD's group), and the empty map when n == 0.
#pragma once

#include "scomm/group/rank_map.hpp"

namespace scomm::group {

class DirectMap final : public RankMap {
 public:
  explicit DirectMap(Rank n) : n_(n) {}
  Rank size() const noexcept override { return n_; }
  Rank select(Rank rank) const noexcept override { return rank; }
  Rank rank_of(Rank world) const noexcept override {
    return world >= 0 && world < n_ ? world : kUndefined;
  }
  void decode(Rank first, std::span<Rank> out) const noexcept override;
  std::size_t bytes() const noexcept override { return sizeof(*this); }
  std::string_view name() const noexcept override { return n_ == 0 ? "empty" : "direct"; }
  std::optional<Box> as_box() const noexcept override { return Box::progression(0, n_, 1); }
  bool ascending() const noexcept override { return true; }

 private:
  Rank n_;
};

}  // namespace scomm::group
