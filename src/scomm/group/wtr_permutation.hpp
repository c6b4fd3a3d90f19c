// wtr: Wavelet Tree on Runs (Barbay-Navarro). Group ranks split into rho maximal runs of increasing
// set indices; S[j] = run holding set index j is kept in a wavelet tree, so apply is a select and
// inverse a rank on S: about n lg(rho) bits, tiny for "ranges permuted" patterns.
#pragma once

#include <sdsl/int_vector.hpp>
#include <sdsl/wavelet_trees.hpp>

#include "scomm/group/representation.hpp"

namespace scomm::group {

class WtrPermutation final : public Permutation {
 public:
  explicit WtrPermutation(std::span<const Rank> set_index_of_rank);
  WtrPermutation(const WtrPermutation&) = delete;
  WtrPermutation& operator=(const WtrPermutation&) = delete;

  Rank size() const noexcept override { return static_cast<Rank>(runs_of_set_index_.size()); }
  Rank apply(Rank r) const noexcept override;
  Rank inverse(Rank j) const noexcept override;
  std::size_t bytes() const noexcept override;
  std::string_view name() const noexcept override { return "wtr"; }

 private:
  sdsl::int_vector<> run_starts_;  // first group rank of each run
  sdsl::wt_int<> runs_of_set_index_;
};

extern const PermutationKind kWtrPermutationKind;

}  // namespace scomm::group
