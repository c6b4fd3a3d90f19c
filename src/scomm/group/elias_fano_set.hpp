// elias-fano: member i split into its low L = floor(lg(U/n)) bits, packed, and its high part,
// stored as bit (member >> L) + i of a bit vector with select on ones and zeros
// (rank_select_bits.hpp). n(2 + lg(U/n)) bits plus ~7% of the high part: within a few percent of
// the information-theoretic bound for random sets. select: one select on the high part and one
// packed read; rank: a select0 to the member's bucket, then a search of the bucket's low parts.
#pragma once

#include <cstdint>
#include <vector>

#include "scomm/group/rank_select_bits.hpp"
#include "scomm/group/representation.hpp"

namespace scomm::group {

class EliasFanoSet final : public OrderedSet {
 public:
  // Precondition: `sorted` strictly increasing, members in [0, 2^31 - 1). The structure ends at
  // the largest member; a larger universe (the world) costs nothing.
  explicit EliasFanoSet(std::span<const Rank> sorted);

  Rank size() const noexcept override { return n_; }
  Rank select(Rank i) const noexcept override;
  Rank rank(Rank world) const noexcept override;
  void decode(Rank first, std::span<Rank> out) const noexcept override;
  std::size_t bytes() const noexcept override;
  std::string_view name() const noexcept override { return "elias-fano"; }

  // L for n members below `universe`.
  static unsigned low_bit_count(Rank n, Rank universe) noexcept;

 private:
  std::uint64_t low(std::uint64_t i) const noexcept;
  Rank member(std::uint64_t i, std::uint64_t high_position) const noexcept {
    return static_cast<Rank>((high_position - i) << low_bits_ | low(i));
  }

  Rank n_;
  Rank universe_;  // largest member + 1
  unsigned low_bits_;
  RankSelectBits high_;
  std::vector<std::uint64_t> low_;  // low_bits_ bits per member, one padding word
};

extern const SetKind kEliasFanoSetKind;

}  // namespace scomm::group
