// Multilevel prefix reduction, inclusive (scan) or exclusive (exscan): an up-sweep and a
// down-sweep over the multilevel tree rooted at rank 0 (multilevel_tree.hpp). Up: a rank sends
// its parent the reduction of its subtree. Down: it receives the reduction of every rank before
// its subtree, forms its result, and sends each child the reduction of every rank before the
// child's subtree. Level 0 carries 2 (clusters(0) - 1) messages, against log2 p rounds of slow
// messages for the flat recursive doubling.
//
// The sweeps need every subtree to be a contiguous rank range, which holds on levels whose
// clusters are contiguous (for any operation, commutative or not). On other levels the scan
// falls back to the flat binary-tree scan (coll/scan_binary_tree.hpp).
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"
#include "scomm/topo/level_costs.hpp"
#include "scomm/topo/levels.hpp"

namespace scomm::topo {

// `count` elements (of `bytes` in all) per rank; `in_place`: every rank's input is its output.
coll::Schedule scan_multilevel(const Levels& levels, const LevelCosts& costs,
                               const coll::Shape& shape, std::int64_t count, std::int64_t bytes,
                               bool in_place);
coll::Schedule exscan_multilevel(const Levels& levels, const LevelCosts& costs,
                                 const coll::Shape& shape, std::int64_t count, std::int64_t bytes,
                                 bool in_place);

// Whether the scans keep to the multilevel tree (else they are the flat binary-tree scans).
bool scan_multilevel_applies(const Levels& levels);

}  // namespace scomm::topo
