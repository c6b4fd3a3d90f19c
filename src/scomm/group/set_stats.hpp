// One pass over a sorted set gathers what every set representation needs to estimate its size.
#pragma once

#include <span>

#include "scomm/group/representation.hpp"

namespace scomm::group {

SetStats compute_set_stats(std::span<const Rank> sorted);
// Length in bits of the Elias-delta code of x >= 1.
unsigned elias_delta_bits(std::uint64_t x);

}  // namespace scomm::group
