// Where the blocks of a vector split among ranks start: per-rank counts (reduce-scatter) or an
// even split (the reduce-scatter phase of the allreduce algorithms).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace scomm::coll {

// offsets[i]: the first element of block i; offsets[n]: the total (n + 1 entries).
inline std::vector<std::int64_t> offsets_of(std::span<const std::int64_t> counts) {
  std::vector<std::int64_t> offsets(counts.size() + 1, 0);
  for (std::size_t i = 0; i < counts.size(); ++i) offsets[i + 1] = offsets[i] + counts[i];
  return offsets;
}

// `count` elements in `blocks` blocks as even as can be: the first count % blocks hold one more.
inline std::vector<std::int64_t> even_offsets(std::int64_t count, int blocks) {
  const std::int64_t base = count / blocks, extra = count % blocks;
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(blocks) + 1, 0);
  for (int i = 0; i < blocks; ++i)
    offsets[static_cast<std::size_t>(i) + 1] =
        offsets[static_cast<std::size_t>(i)] + base + (i < extra ? 1 : 0);
  return offsets;
}

}  // namespace scomm::coll
