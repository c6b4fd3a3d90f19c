// stride: offset, offset+stride, ... (n terms); a negative stride gives a reversed progression.
#pragma once

#include "scomm/group/rank_map.hpp"

namespace scomm::group {

class StrideMap final : public RankMap {
 public:
  StrideMap(Rank offset, std::int64_t stride, Rank n) : offset_(offset), stride_(stride), n_(n) {}
  Rank size() const noexcept override { return n_; }
  Rank select(Rank rank) const noexcept override {
    return static_cast<Rank>(offset_ + rank * stride_);
  }
  Rank rank_of(Rank world) const noexcept override;
  void decode(Rank first, std::span<Rank> out) const noexcept override;
  std::size_t bytes() const noexcept override { return sizeof(*this); }
  std::string_view name() const noexcept override { return "stride"; }
  std::optional<Box> as_box() const noexcept override {
    return Box::progression(offset_, n_, stride_);
  }
  bool ascending() const noexcept override { return stride_ > 0; }

 private:
  Rank offset_;
  std::int64_t stride_;
  Rank n_;
};

}  // namespace scomm::group
