// offset: a contiguous block offset .. offset+n-1 of the world.
#pragma once

#include "scomm/group/rank_map.hpp"

namespace scomm::group {

class OffsetMap final : public RankMap {
 public:
  OffsetMap(Rank offset, Rank n) : offset_(offset), n_(n) {}
  Rank size() const noexcept override { return n_; }
  Rank select(Rank rank) const noexcept override { return offset_ + rank; }
  Rank rank_of(Rank world) const noexcept override {
    const std::int64_t r = static_cast<std::int64_t>(world) - offset_;
    return r >= 0 && r < n_ ? static_cast<Rank>(r) : kUndefined;
  }
  void decode(Rank first, std::span<Rank> out) const noexcept override;
  std::size_t bytes() const noexcept override { return sizeof(*this); }
  std::string_view name() const noexcept override { return "offset"; }
  std::optional<Box> as_box() const noexcept override { return Box::progression(offset_, n_, 1); }
  bool ascending() const noexcept override { return true; }

 private:
  Rank offset_;
  Rank n_;
};

}  // namespace scomm::group
