// Multilevel gather: the mirror of the multilevel broadcast (multilevel_tree.hpp). A rank
// collects its subtree's blocks in receiving order in a temporary and hands them to its parent
// in one message, so each block crosses each level once and level 0 carries clusters(0) - 1
// messages. The root receives into a temporary and copies the blocks into rank order, run by
// run of consecutive ranks; it alone walks the whole tree (O(p) nodes built, at the root only).
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"
#include "scomm/topo/level_costs.hpp"
#include "scomm/topo/levels.hpp"

namespace scomm::topo {

// Gathers `sendcount` elements of the send type from every rank into the root's output, rank
// r's block at r * recvcount elements of the receive type; `bytes`: one block's size. `in_place`:
// the root's block is already in its output.
coll::Schedule gather_multilevel(const Levels& levels, const LevelCosts& costs,
                                 const coll::Shape& shape, std::int64_t sendcount,
                                 std::int64_t recvcount, std::int64_t bytes, bool in_place);

// The same rounds appended to `schedule`: every rank's `block` (`type` elements; at the root, a
// block already in place in the output needs no copy) into the root's output.
void add_gather_multilevel(coll::Schedule& schedule, const Levels& levels, const LevelCosts& costs,
                           const coll::Shape& shape, coll::Block block, coll::TypeId type,
                           std::int64_t recvcount, std::int64_t bytes);

}  // namespace scomm::topo
