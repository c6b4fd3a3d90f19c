#include "scomm/group/set_stats.hpp"

#include <bit>

namespace scomm::group {

unsigned elias_delta_bits(std::uint64_t x) {
  const unsigned length = static_cast<unsigned>(std::bit_width(x));  // floor(lg x) + 1
  const unsigned length_of_length = static_cast<unsigned>(std::bit_width(length));
  return length - 1 + 2 * (length_of_length - 1) + 1;
}

SetStats compute_set_stats(std::span<const Rank> sorted) {
  SetStats stats;
  stats.n = static_cast<Rank>(sorted.size());
  Rank previous = -1;
  for (Rank w : sorted) {
    stats.delta_bits += elias_delta_bits(static_cast<std::uint64_t>(w - previous));
    if (w != previous + 1 || stats.runs == 0) ++stats.runs;
    previous = w;
  }
  stats.universe = sorted.empty() ? 0 : sorted.back() + 1;
  return stats;
}

}  // namespace scomm::group
