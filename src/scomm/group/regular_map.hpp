// The constant-size map for a regular pattern: the most specific of direct, offset, stride,
// stride-block and box, so lookups cost 2-8 instructions.
#pragma once

#include "scomm/group/rank_map.hpp"

namespace scomm::group {

MapPtr make_regular_map(const Box& box);

}  // namespace scomm::group
