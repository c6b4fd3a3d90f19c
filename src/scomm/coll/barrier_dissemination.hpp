// Dissemination barrier (Hensgen, Finkel, Manber): in round k every rank signals rank + 2^k and
// waits for rank - 2^k; ceil(log2 p) rounds of empty messages, for any p.
#pragma once

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

Schedule barrier_dissemination(const Shape& shape);

}  // namespace scomm::coll
