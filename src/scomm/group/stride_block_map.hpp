// stride-block (AV-Rankmap): blocks of `block` consecutive world ranks, a block every `stride`.
#pragma once

#include "scomm/group/rank_map.hpp"

namespace scomm::group {

class StrideBlockMap final : public RankMap {
 public:
  StrideBlockMap(Rank offset, Rank block, std::int64_t stride, Rank n)
      : offset_(offset), block_(block), stride_(stride), n_(n) {}
  Rank size() const noexcept override { return n_; }
  Rank select(Rank rank) const noexcept override {
    return static_cast<Rank>(offset_ + (rank / block_) * stride_ + rank % block_);
  }
  Rank rank_of(Rank world) const noexcept override;
  void decode(Rank first, std::span<Rank> out) const noexcept override;
  std::size_t bytes() const noexcept override { return sizeof(*this); }
  std::string_view name() const noexcept override { return "stride-block"; }
  std::optional<Box> as_box() const noexcept override;
  bool ascending() const noexcept override { return stride_ > 0; }

 private:
  Rank offset_;
  Rank block_;
  std::int64_t stride_;
  Rank n_;
};

}  // namespace scomm::group
