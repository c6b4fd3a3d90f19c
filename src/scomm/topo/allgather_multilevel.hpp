// Multilevel allgather: the multilevel gather to rank 0, then the multilevel broadcast of the
// whole result from it (gather_multilevel.hpp, bcast_multilevel.hpp): 2 (clusters(0) - 1)
// messages on level 0. Rank 0 walks the whole tree once (O(p) nodes built there).
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"
#include "scomm/topo/level_costs.hpp"
#include "scomm/topo/levels.hpp"

namespace scomm::topo {

// Every rank's `sendcount` elements of the send type into every rank's output, rank r's block
// at r * recvcount elements of the receive type; `bytes`: one block's size. `in_place`: every
// rank's block is already in its output.
coll::Schedule allgather_multilevel(const Levels& levels, const LevelCosts& costs,
                                    const coll::Shape& shape, std::int64_t sendcount,
                                    std::int64_t recvcount, std::int64_t bytes, bool in_place);

}  // namespace scomm::topo
