// One-pass detection of regular patterns (AV-Rankmap step 1, generalised to boxes).
#pragma once

#include <functional>
#include <optional>
#include <span>

#include "scomm/group/box.hpp"

namespace scomm::group {

// The box whose values are value(0), ..., value(n-1), if there is one. `value` is called once per
// rank in increasing order, and the pass stops at the first value that breaks the pattern, so
// irregular input costs little. O(1) memory.
std::optional<Box> detect_box(Rank n, const std::function<Rank(Rank)>& value);
std::optional<Box> detect_box(std::span<const Rank> values);

}  // namespace scomm::group
