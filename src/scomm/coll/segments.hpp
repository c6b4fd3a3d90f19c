// Segments of the pipelined algorithms: long enough to amortize a message's latency, short
// enough to keep every level of a tree busy.
#pragma once

#include <algorithm>
#include <cstdint>

namespace scomm::coll {

inline constexpr std::int64_t kPipelineSegmentBytes = 32 * 1024;

// Elements per segment of `segment_bytes` for `count` elements of `bytes` in all (at least 1).
inline std::int64_t segment_elements(std::int64_t bytes, std::int64_t count,
                                     std::int64_t segment_bytes = kPipelineSegmentBytes) {
  const std::int64_t element = std::max<std::int64_t>(1, bytes / std::max<std::int64_t>(count, 1));
  return std::max<std::int64_t>(1, segment_bytes / element);
}

}  // namespace scomm::coll
