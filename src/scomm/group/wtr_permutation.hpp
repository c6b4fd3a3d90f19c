// wtr: Wavelet Tree on Runs (Barbay-Navarro). Group ranks split into rho maximal runs of increasing
// set indices; S[j] = run holding set index j is kept in a wavelet matrix (a balanced wavelet tree
// laid out level by level), so apply is a select and inverse a rank on S: n ceil(lg rho) bits plus
// 12.5% for the rank samples, tiny for "few ranges" patterns.
//
// This is the SPACE permutation: its bitvectors are sdsl's interleaved ones (one 64-bit rank sample
// per 512 bits, select by binary search over the samples), which cost 0.125 bits per bit where
// sdsl's default rank_support_v + two select_support_mcl cost about 0.9 bits per bit plus 20 KB, at
// about twice the select time (measured at n = 100,000: rho = 10 takes 4.5 bits a rank instead of
// 7.5, rho = 1,000 11.3 instead of 16.5). The packed permutation is the fast one.
#pragma once

#include <sdsl/bit_vector_il.hpp>
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
  static constexpr std::uint32_t kBlockBits = 512;
  using Sequence =
      sdsl::wm_int<sdsl::bit_vector_il<kBlockBits>, sdsl::rank_support_il<1, kBlockBits>,
                   sdsl::select_support_il<1, kBlockBits>, sdsl::select_support_il<0, kBlockBits>>;

  sdsl::int_vector<> run_starts_;  // first group rank of each run, increasing
  Sequence runs_of_set_index_;     // S
};

extern const PermutationKind kWtrPermutationKind;

}  // namespace scomm::group
