// Multilevel allreduce: the multilevel reduce to rank 0, then the multilevel broadcast from it
// (reduce_multilevel.hpp, bcast_multilevel.hpp): 2 (clusters(0) - 1) messages on level 0. For a
// non-commutative operation on non-contiguous levels, where no multilevel tree keeps rank order,
// it falls back to the flat recursive doubling (coll/allreduce_recursive_doubling.hpp).
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"
#include "scomm/topo/level_costs.hpp"
#include "scomm/topo/levels.hpp"

namespace scomm::topo {

// `count` elements (of `bytes` in all) per rank; `in_place`: every rank's input is its output.
coll::Schedule allreduce_multilevel(const Levels& levels, const LevelCosts& costs,
                                    const coll::Shape& shape, std::int64_t count,
                                    std::int64_t bytes, bool in_place, bool commutative);

}  // namespace scomm::topo
