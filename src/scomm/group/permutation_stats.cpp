#include "scomm/group/permutation_stats.hpp"

#include <bit>

namespace scomm::group {

unsigned packed_width(std::uint64_t bound) {
  return bound <= 2 ? 1u : static_cast<unsigned>(std::bit_width(bound - 1));
}

PermutationStats compute_permutation_stats(std::span<const Rank> set_index_of_rank) {
  PermutationStats stats;
  stats.n = static_cast<Rank>(set_index_of_rank.size());
  for (std::size_t r = 0; r < set_index_of_rank.size(); ++r)
    if (r == 0 || set_index_of_rank[r] < set_index_of_rank[r - 1]) ++stats.ascending_runs;
  return stats;
}

}  // namespace scomm::group
