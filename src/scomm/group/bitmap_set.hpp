// bitmap: one bit per world rank up to the largest member (thesis 4.1.3) with rank and select
// support (rank_select_bits.hpp: a count per 512-bit block, select samples a few blocks apart).
// Auxiliary structures take ~6.3% of the bits: smaller than sdsl's rank_support_v5 plus
// select_support_mcl (25-80% over the bits), and as fast on dense sets.
#pragma once

#include "scomm/group/rank_select_bits.hpp"
#include "scomm/group/representation.hpp"

namespace scomm::group {

class BitmapSet final : public OrderedSet {
 public:
  // Precondition: `sorted` strictly increasing, members in [0, 2^31 - 1). The bits end at the
  // largest member; a larger universe (the world) costs nothing.
  explicit BitmapSet(std::span<const Rank> sorted);

  Rank size() const noexcept override { return static_cast<Rank>(bits_.ones()); }
  Rank select(Rank i) const noexcept override { return static_cast<Rank>(bits_.select1(i)); }
  Rank rank(Rank world) const noexcept override;
  void decode(Rank first, std::span<Rank> out) const noexcept override;
  std::size_t bytes() const noexcept override { return sizeof(*this) + bits_.heap_bytes(); }
  std::string_view name() const noexcept override { return "bitmap"; }

 private:
  RankSelectBits bits_;  // bit w: world rank w is a member
};

extern const SetKind kBitmapSetKind;

}  // namespace scomm::group
