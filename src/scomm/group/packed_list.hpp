// packed-array: the thesis's "optimized canonical" list, ceil(lg W) bits per member.
#pragma once

#include <sdsl/int_vector.hpp>

#include "scomm/group/representation.hpp"

namespace scomm::group {

class PackedList final : public RankMap {
 public:
  // `universe` (largest member + 1) sets the width; a smaller one is widened to fit the members.
  PackedList(std::span<const Rank> world_ranks, Rank universe);
  Rank size() const noexcept override { return static_cast<Rank>(ranks_.size()); }
  Rank select(Rank rank) const noexcept override {
    return static_cast<Rank>(ranks_[static_cast<std::size_t>(rank)]);
  }
  Rank rank_of(Rank world) const noexcept override;
  void decode(Rank first, std::span<Rank> out) const noexcept override;
  std::size_t bytes() const noexcept override {
    return sizeof(*this) + sdsl::size_in_bytes(ranks_);
  }
  std::string_view name() const noexcept override { return "packed-array"; }
  bool ascending() const noexcept override { return ascending_; }

 private:
  sdsl::int_vector<> ranks_;
  bool ascending_;
};

extern const ListKind kPackedListKind;

}  // namespace scomm::group
