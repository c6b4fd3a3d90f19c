// Building and composing maps. Regular patterns are detected first (one pass, O(1) memory);
// only irregular maps are materialized and handed to the strategy.
#pragma once

#include <functional>
#include <span>

#include "scomm/group/rank_map.hpp"
#include "scomm/group/strategy.hpp"

namespace scomm::group {

// The map with select(r) = world_ranks[r]. Precondition: no duplicates, all >= 0.
MapPtr build_map(std::span<const Rank> world_ranks, const MapPolicy& policy);

// The map with select(r) = generate(r) for r < n, built without an O(n) array when the values form
// a regular pattern.
MapPtr build_map(Rank n, const std::function<Rank(Rank)>& generate, const MapPolicy& policy);

// The map child-then-parent: select(r) = parent.select(child.select(r)), where the child's values
// are ranks of the parent. Stays regular, or shares the parent's table, whenever it can.
MapPtr compose(const MapPtr& parent, const MapPtr& child, const MapPolicy& policy);

}  // namespace scomm::group
