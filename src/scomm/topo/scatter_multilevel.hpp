// Multilevel scatter: the multilevel gather run backwards (gather_multilevel.hpp). The root
// packs the other ranks' blocks in the tree's receiving order, run by run of consecutive ranks
// (O(p) nodes built, at the root only), and sends each child its subtree's blocks in one
// message; a rank keeps its own block and passes its children theirs. Level 0 carries
// clusters(0) - 1 messages.
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"
#include "scomm/topo/level_costs.hpp"
#include "scomm/topo/levels.hpp"

namespace scomm::topo {

// Scatters the root's input, rank r's block at r * sendcount elements of the send type, into
// every rank's output (`recvcount` elements of the receive type); `bytes`: one block's size.
// `in_place`: the root keeps its block where it is (its output is not written).
coll::Schedule scatter_multilevel(const Levels& levels, const LevelCosts& costs,
                                  const coll::Shape& shape, std::int64_t sendcount,
                                  std::int64_t recvcount, std::int64_t bytes, bool in_place);

}  // namespace scomm::topo
