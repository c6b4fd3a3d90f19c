// bitmap: one bit per world rank up to the largest member (thesis 4.1.3), the number of members
// before every 512-bit block (rank: one sample plus at most 8 word popcounts) and the block of
// every 2^k-th member, k chosen so that samples lie about 4 blocks apart (select: a search among
// the few blocks between two samples, popcounts in one block, a select in one word). Auxiliary
// structures take ~6.3% of the bits: smaller than sdsl's rank_support_v5 + select_support_mcl
// (25-80% over the bits), as fast on dense sets.
#pragma once

#include <cstdint>
#include <vector>

#include "scomm/group/representation.hpp"

namespace scomm::group {

class BitmapSet final : public OrderedSet {
 public:
  static constexpr Rank kBlockBits = 512;
  // log2 of the number of members between select samples: ~4 blocks' worth, at most 512.
  static unsigned select_step_log2(Rank n, Rank bit_count) noexcept;

  // Precondition: `sorted` strictly increasing, members in [0, 2^31 - 1). Bits cover the
  // members only; a larger `universe` (the world) costs nothing.
  explicit BitmapSet(std::span<const Rank> sorted);

  Rank size() const noexcept override { return n_; }
  Rank select(Rank i) const noexcept override;
  Rank rank(Rank world) const noexcept override;
  void decode(Rank first, std::span<Rank> out) const noexcept override;
  std::size_t bytes() const noexcept override;
  std::string_view name() const noexcept override { return "bitmap"; }

 private:
  std::size_t block_of_member(Rank i) const noexcept;

  Rank n_;
  Rank bit_count_;                           // largest member + 1
  unsigned step_log2_;                       // select samples every 2^step_log2_ members
  std::vector<std::uint64_t> words_;         // bit w % 64 of word w / 64: w is a member
  std::vector<std::uint32_t> block_rank_;    // members before each block, then n
  std::vector<std::uint32_t> select_block_;  // block of member j << step_log2_
};

extern const SetKind kBitmapSetKind;

}  // namespace scomm::group
