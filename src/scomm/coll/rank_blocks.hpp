// Blocks indexed by rank, held as runs in relative order. Tree and Bruck algorithms keep the
// blocks of ranks r, r + 1, ... (modulo p) in a row in a temporary, while the user's buffers are
// in rank order, where such a run wraps past rank p - 1: these helpers split it in two.
#pragma once

#include <algorithm>
#include <cstdint>

#include "scomm/coll/schedule.hpp"

namespace scomm::coll {

// A buffer in rank order: rank r's block at r * block, `block` elements long.
struct RankedBuffer {
  Slot slot = kOutput;
  std::int64_t block = 0;
};

// Blocks in a row: the run's i-th block at offset + i * block.
struct RunBuffer {
  Slot slot = kOutput;
  std::int64_t offset = 0;
  std::int64_t block = 0;
};

// Whether the ranks first, ..., first + n - 1 wrap past size - 1.
inline bool wraps(int first, int n, int size) noexcept {
  return first + n > size;
}

// The blocks of ranks first, ..., first + n - 1 of `ranked` as one Block (they must not wrap).
inline Block ranked_blocks(RankedBuffer ranked, int first, int n) noexcept {
  return {ranked.slot, first * ranked.block, n * ranked.block};
}

// Copies the blocks of ranks first, first + 1, ... (n of them, modulo size) between a run and
// `ranked`: run -> ranked when `to_ranked`, else ranked -> run. One copy, or two across the wrap.
inline void copy_run(Schedule& schedule, RunBuffer run, RankedBuffer ranked, int first, int n,
                     int size, bool to_ranked) {
  const int head = std::min(n, size - first);
  const int starts[2] = {first, 0};
  const int lengths[2] = {head, n - head};
  std::int64_t at = run.offset;
  for (int part = 0; part < 2; ++part) {
    if (lengths[part] == 0) continue;
    const Block in_run{run.slot, at, lengths[part] * run.block};
    const Block in_ranked = ranked_blocks(ranked, starts[part], lengths[part]);
    if (to_ranked)
      schedule.copy(in_run, in_ranked);
    else
      schedule.copy(in_ranked, in_run);
    at += in_run.count;
  }
}

}  // namespace scomm::coll
