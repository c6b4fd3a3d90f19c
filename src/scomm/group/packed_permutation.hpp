// packed: the permutation as a ceil(lg n)-bit array, inverted by walking its cycles with a back
// pointer every kShortcut steps (Munro, Raman, Raman, Rao): an inverse costs at most
// 2*kShortcut+1 lookups for about n/kShortcut extra entries.
#pragma once

#include <sdsl/bit_vectors.hpp>
#include <sdsl/int_vector.hpp>

#include "scomm/group/representation.hpp"

namespace scomm::group {

class PackedPermutation final : public Permutation {
 public:
  static constexpr Rank kShortcut = 16;

  explicit PackedPermutation(std::span<const Rank> set_index_of_rank);
  PackedPermutation(const PackedPermutation&) = delete;
  PackedPermutation& operator=(const PackedPermutation&) = delete;

  Rank size() const noexcept override { return static_cast<Rank>(forward_.size()); }
  Rank apply(Rank r) const noexcept override { return static_cast<Rank>(forward_[r]); }
  Rank inverse(Rank j) const noexcept override;
  std::size_t bytes() const noexcept override;
  std::string_view name() const noexcept override { return "packed"; }

 private:
  void add_shortcuts();

  sdsl::int_vector<> forward_;
  sdsl::bit_vector has_back_;
  sdsl::rank_support_v5<1> back_index_;
  sdsl::int_vector<> back_;
};

extern const PermutationKind kPackedPermutationKind;

}  // namespace scomm::group
