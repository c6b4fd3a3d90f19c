// Multilevel reduce: the mirror of the multilevel broadcast (multilevel_tree.hpp). A rank
// reduces its children's partial results, the fastest stage first, then sends to its parent;
// level 0 carries clusters(0) - 1 messages.
//
// Non-commutative operations need rank order. On levels whose clusters are contiguous rank
// ranges the tree is rooted at rank 0, where every subtree is a contiguous rank range, and rank
// 0 sends the result to the root (one message more when root != 0). On non-contiguous levels no
// multilevel tree keeps rank order, and the reduce falls back to the flat binomial reduce
// (coll/reduce_binomial.hpp), which does.
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"
#include "scomm/topo/level_costs.hpp"
#include "scomm/topo/levels.hpp"

namespace scomm::topo {

// Reduces `count` elements (of `bytes` in all) of every rank's input into the output of
// shape.root. `in_place`: the root's input is its output.
coll::Schedule reduce_multilevel(const Levels& levels, const LevelCosts& costs,
                                 const coll::Shape& shape, std::int64_t count, std::int64_t bytes,
                                 bool in_place, bool commutative);

// Whether reduce_multilevel keeps to the multilevel tree (else it is the flat binomial reduce).
bool reduce_multilevel_applies(const Levels& levels, bool commutative);

// The tree's rounds appended to `schedule`: every rank's `input` is reduced into `result` at
// shape.root (the tree's root: rank 0 for a non-commutative operation), which may be the same
// block as its input. Needs reduce_multilevel_applies.
void add_reduce_multilevel(coll::Schedule& schedule, const Levels& levels, const LevelCosts& costs,
                           const coll::Shape& shape, coll::Block input, coll::Block result,
                           std::int64_t bytes);

}  // namespace scomm::topo
