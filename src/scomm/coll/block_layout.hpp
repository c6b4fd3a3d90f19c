// Where a collective's blocks lie in a buffer, block i being the one of rank i (or of neighbor
// i): in a row of equal blocks, at given counts and displacements, one block for all, or each a
// view of its own (a w-form's).
#pragma once

#include <algorithm>
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

// Block i is the schedule's view first + i (schedule.hpp), counts[i] elements of its type.
struct ViewLayout {
  std::size_t first = 0;
  std::span<const int> counts;

  Block block(int index) const noexcept {
    const auto i = static_cast<std::size_t>(index);
    return {Schedule::view_slot(first + i), 0, counts[i]};
  }
  std::size_t views_end() const noexcept { return first + counts.size(); }
};

// How many views a schedule over the layouts `send` and `recv` names.
template <typename Send, typename Recv>
std::size_t views_named(const Send& send, const Recv& recv) {
  const auto end = [](const auto& layout) -> std::size_t {
    if constexpr (requires { layout.views_end(); })
      return layout.views_end();
    else
      return 0;
  };
  return std::max(end(send), end(recv));
}

}  // namespace scomm::coll
