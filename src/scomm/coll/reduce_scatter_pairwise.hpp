// Pairwise-exchange reduce-scatter: p - 1 steps; in step i a rank sends block r - i of its input
// to rank r - i and receives rank r + i's contribution to its own block. Every element crosses
// the network once, with no temporary vector and no forwarding: the choice for long vectors.
// Contributions arrive in the order r+1, ..., p-1, 0, ..., r-1, so a second partial collects
// the lower ranks' and joins last: non-commutative operations reduce in rank order too.
#pragma once

#include <cstdint>
#include <span>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// As reduce_scatter_recursive_halving: block r of the reduced vector to rank r; `in_place`: the
// input is the output.
Schedule reduce_scatter_pairwise(const Shape& shape, std::span<const std::int64_t> counts,
                                 bool in_place);

}  // namespace scomm::coll
