// Where a collective's blocks lie in a buffer, block i being the one of rank i (or of neighbor
// i): in a row of equal blocks, at given counts and displacements, or one block for all.
#pragma once

#include <cstdint>
#include <span>

#include "scomm/coll/schedule.hpp"

namespace scomm::coll {

// Block i in a buffer of blocks of `count` elements in a row.
struct RegularLayout {
  Slot slot = kOutput;
  std::int64_t count = 0;

  Block block(int index) const noexcept { return {slot, index * count, count}; }
};

// Block i at displs[i], counts[i] elements long (elements of the slot's type).
struct VectorLayout {
  Slot slot = kOutput;
  std::span<const int> counts;
  std::span<const int> displs;

  Block block(int index) const noexcept {
    const auto i = static_cast<std::size_t>(index);
    return {slot, displs[i], counts[i]};
  }
};

// The same block for every index (what allgather-like exchanges send).
struct SameBlock {
  Block own;

  Block block(int /*index*/) const noexcept { return own; }
};

}  // namespace scomm::coll
