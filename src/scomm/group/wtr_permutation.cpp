#include "scomm/group/wtr_permutation.hpp"

#include <algorithm>
#include <vector>

#include "scomm/group/permutation_stats.hpp"

namespace scomm::group {

WtrPermutation::WtrPermutation(std::span<const Rank> set_index_of_rank) {
  const std::size_t n = set_index_of_rank.size();
  std::vector<std::uint64_t> starts;
  sdsl::int_vector<> run_of(n, 0, static_cast<std::uint8_t>(packed_width(n)));
  for (std::size_t r = 0; r < n; ++r) {
    if (r == 0 || set_index_of_rank[r] < set_index_of_rank[r - 1]) starts.push_back(r);
    run_of[static_cast<std::size_t>(set_index_of_rank[r])] = starts.size() - 1;
  }
  run_starts_ =
      sdsl::int_vector<>(starts.size(), 0, static_cast<std::uint8_t>(packed_width(n + 1)));
  std::copy(starts.begin(), starts.end(), run_starts_.begin());
  sdsl::util::bit_compress(run_of);
  sdsl::construct_im(runs_of_set_index_, run_of);
}

Rank WtrPermutation::apply(Rank r) const noexcept {
  const auto it =
      std::upper_bound(run_starts_.begin(), run_starts_.end(), static_cast<std::uint64_t>(r));
  const auto run = static_cast<std::uint64_t>(it - run_starts_.begin() - 1);
  const std::uint64_t offset = static_cast<std::uint64_t>(r) - run_starts_[run];
  return static_cast<Rank>(runs_of_set_index_.select(offset + 1, run));
}

Rank WtrPermutation::inverse(Rank j) const noexcept {
  const auto [offset, run] = runs_of_set_index_.inverse_select(static_cast<std::uint64_t>(j));
  return static_cast<Rank>(run_starts_[run] + offset);
}

std::size_t WtrPermutation::bytes() const noexcept {
  return sizeof(*this) + sdsl::size_in_bytes(run_starts_) + sdsl::size_in_bytes(runs_of_set_index_);
}

namespace {

unsigned levels(const PermutationStats& s) {
  return packed_width(static_cast<std::uint64_t>(std::max<Rank>(s.ascending_runs, 2)));
}

// One bit per entry and level, plus the wavelet tree's rank (25%) and select samples (~40%).
std::size_t estimate_bytes(const PermutationStats& s) {
  const double bits = static_cast<double>(s.n) * levels(s) * 1.65 +
                      static_cast<double>(s.ascending_runs) * packed_width(s.n + 1u);
  return sizeof(WtrPermutation) + static_cast<std::size_t>(bits / 8) + 512;
}

// A select and a rank per level.
double estimate_ns(const PermutationStats& s) {
  return 20.0 + 60.0 * levels(s);
}

PermutationPtr build(std::span<const Rank> set_index_of_rank) {
  return std::make_unique<WtrPermutation>(set_index_of_rank);
}

}  // namespace

const PermutationKind kWtrPermutationKind{"wtr", estimate_bytes, estimate_ns, build};

}  // namespace scomm::group
