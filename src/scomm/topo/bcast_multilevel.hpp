// Multilevel broadcast (multilevel_tree.hpp): the root reaches one rank per cluster of the
// slowest level, then each level below inside its cluster; a message crosses each slow link
// once, so level 0 carries clusters(0) - 1 messages. Messages longer than a pipeline segment
// (coll/segments.hpp) go segment by segment, so every level of the tree works at once.
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"
#include "scomm/topo/level_costs.hpp"
#include "scomm/topo/levels.hpp"

namespace scomm::topo {

// Broadcasts `count` elements (of `bytes` in all) of the output buffer from shape.root; shape
// is over levels.size() ranks.
coll::Schedule bcast_multilevel(const Levels& levels, const LevelCosts& costs,
                                const coll::Shape& shape, std::int64_t count, std::int64_t bytes);

// The same rounds appended to `schedule`, broadcasting `data` (for composed collectives). Its
// segments hold whole units of `unit` elements: units whose bytes every member agrees on (one
// rank's block of an allgather) keep the cuts alike where members' element types differ.
void add_bcast_multilevel(coll::Schedule& schedule, const Levels& levels, const LevelCosts& costs,
                          const coll::Shape& shape, coll::Block data, std::int64_t bytes,
                          std::int64_t unit = 1);

}  // namespace scomm::topo
