// k-nomial-tree broadcast: relative ranks written in base k; a rank receives from the rank with
// its lowest nonzero digit cleared and forwards to up to k - 1 children at each lower digit.
// ceil(log_k p) levels: fewer steps than binomial (k = 2) where a sender can have several
// messages in flight at once, as on shared memory and on networks with many injection engines.
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// Broadcasts `count` elements of the output buffer from shape.root; radix >= 2.
Schedule bcast_knomial(const Shape& shape, std::int64_t count, int radix);

}  // namespace scomm::coll
