// Multilevel barrier: empty messages up the multilevel tree rooted at rank 0
// (multilevel_tree.hpp), then down it. Level 0 carries 2 (clusters(0) - 1) messages, against
// the O(p log p) of a flat dissemination barrier whose every round crosses the slow links.
#pragma once

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"
#include "scomm/topo/level_costs.hpp"
#include "scomm/topo/levels.hpp"

namespace scomm::topo {

coll::Schedule barrier_multilevel(const Levels& levels, const LevelCosts& costs,
                                  const coll::Shape& shape);

}  // namespace scomm::topo
