// packed: the permutation as a ceil(lg n)-bit array, inverted by walking its cycles with back
// pointers (Munro, Raman, Raman, Rao, "Succinct representations of permutations").
//
// The inverse of j is the element before j on j's cycle. Every cycle longer than kShortcut = t gets
// a mark every t steps along it, and each mark a back pointer to the mark t steps before it (the
// first mark points to the last one, fewer than t+1 steps back). inverse(j) walks forward from j
// until it meets a mark (d < t steps), jumps back once to the previous mark, which lies at most
// t - d steps before j, and walks on to j's predecessor: t+1 lookups of the array and one of the
// back pointers in all; a cycle of at most t elements has no marks and is walked in full.
//
// Extra space: a bitvector of n bits with a rank directory (6.25%) that says which elements are
// marks, and about n/t back pointers of ceil(lg n) bits, i.e. 1.07 + ceil(lg n)/16 bits a rank.
// A sparse (Elias-Fano) mark set would be smaller but its membership test costs a select on every
// step of the walk.
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
