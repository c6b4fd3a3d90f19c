// Linear barrier: every rank signals rank 0, which answers each once it has heard from all; two
// steps of empty messages whatever p, where the dissemination barrier takes ceil(log2 p) rounds
// that each wait for another rank. Rank 0's signals go one by one (Round::one_by_one).
#pragma once

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

Schedule barrier_linear(const Shape& shape);

}  // namespace scomm::coll
