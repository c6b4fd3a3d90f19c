// bitmap: one bit per world rank below the largest member, with sampled prefix sums for rank and
// sampled positions for select (sdsl's rank_support_v5 and select_support_mcl: popcount-based).
#pragma once

#include <sdsl/bit_vectors.hpp>

#include "scomm/group/representation.hpp"

namespace scomm::group {

class BitmapSet final : public OrderedSet {
 public:
  BitmapSet(std::span<const Rank> sorted, Rank universe);
  BitmapSet(const BitmapSet&) = delete;
  BitmapSet& operator=(const BitmapSet&) = delete;

  Rank size() const noexcept override { return n_; }
  Rank select(Rank i) const noexcept override { return static_cast<Rank>(select_(i + 1)); }
  Rank rank(Rank world) const noexcept override;
  void decode(Rank first, std::span<Rank> out) const noexcept override;
  std::size_t bytes() const noexcept override;
  std::string_view name() const noexcept override { return "bitmap"; }

 private:
  Rank n_;
  sdsl::bit_vector bits_;
  sdsl::rank_support_v5<1> rank_;
  sdsl::select_support_mcl<1> select_;
};

extern const SetKind kBitmapSetKind;

}  // namespace scomm::group
