// box: multi-dimensional block-stride pattern (rows, columns, planes and sub-boxes of a
// Cartesian grid in any dimension order); constant size.
#pragma once

#include "scomm/group/rank_map.hpp"

namespace scomm::group {

class BoxMap final : public RankMap {
 public:
  explicit BoxMap(const Box& box) : box_(box) {}
  Rank size() const noexcept override { return box_.size(); }
  Rank select(Rank rank) const noexcept override { return box_.value(rank); }
  Rank rank_of(Rank world) const noexcept override { return box_.index_of(world); }
  std::size_t bytes() const noexcept override { return sizeof(*this); }
  std::string_view name() const noexcept override { return "box"; }
  std::optional<Box> as_box() const noexcept override { return box_; }
  bool ascending() const noexcept override { return box_.ascending(); }

 private:
  Box box_;
};

}  // namespace scomm::group
