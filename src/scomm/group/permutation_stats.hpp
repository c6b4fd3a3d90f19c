// One pass over a permutation gathers what every permutation representation needs to estimate
// its size.
#pragma once

#include <span>

#include "scomm/group/representation.hpp"

namespace scomm::group {

PermutationStats compute_permutation_stats(std::span<const Rank> set_index_of_rank);
// Bits per entry of a packed array of values < bound (at least 1).
unsigned packed_width(std::uint64_t bound);

}  // namespace scomm::group
