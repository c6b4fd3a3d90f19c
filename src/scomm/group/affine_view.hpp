// A child that reuses an irregular parent's table: select(r) = base.select(offset + r*stride).
// Views never stack (a view of a view folds into one view of the base), so a lookup costs one
// base lookup plus a multiply-add at any depth of splits -- unlike Open MPI's sparse groups, which
// walk the parent chain.
#pragma once

#include <string>

#include "scomm/group/rank_map.hpp"

namespace scomm::group {

class AffineView final : public RankMap {
 public:
  // Precondition: offset + r*stride is a rank of `base` for every r < n.
  static MapPtr make(const MapPtr& base, Rank offset, std::int64_t stride, Rank n);

  Rank size() const noexcept override { return n_; }
  Rank select(Rank rank) const noexcept override {
    return base_->select(static_cast<Rank>(offset_ + rank * stride_));
  }
  Rank rank_of(Rank world) const noexcept override;
  std::size_t bytes() const noexcept override { return sizeof(*this) + name_.capacity(); }
  std::size_t shared_bytes() const noexcept override {
    return base_->bytes() + base_->shared_bytes();
  }
  std::string_view name() const noexcept override { return name_; }
  bool ascending() const noexcept override { return base_->ascending() && stride_ > 0; }

  AffineView(MapPtr base, Rank offset, std::int64_t stride, Rank n);

 private:
  MapPtr base_;
  Rank offset_;
  std::int64_t stride_;
  Rank n_;
  std::string name_;
};

}  // namespace scomm::group
