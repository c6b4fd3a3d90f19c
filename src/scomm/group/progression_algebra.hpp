// Set algebra on arithmetic progressions in O(1) (the "range and stride algebra" of compact
// groups): intersecting evens with multiples of 3 of a million-rank world costs a few divisions,
// not a pass over half a million members.
#pragma once

#include <optional>

#include "scomm/group/box.hpp"

namespace scomm::group {

// The members of `a` that are in `b`, in a's order, when both are progressions (boxes of at most
// one dimension); nullopt otherwise.
std::optional<Box> intersect_progressions(const Box& a, const Box& b);

}  // namespace scomm::group
