// Linear all-to-all with counts: one round posting every receive and every send at once, each
// straight from and into its place (peers in the order rank + 1, rank + 2, ... so that not all
// ranks start with the same one). In place, the blocks arrive in one temporary, in a row, and are
// copied over the blocks just sent once all have completed.
#pragma once

#include <span>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// Counts and displacements, in elements, of every rank's block.
struct VectorLayout {
  std::span<const int> counts;
  std::span<const int> displs;

  Block block(Slot slot, int rank) const noexcept {
    const auto r = static_cast<std::size_t>(rank);
    return {slot, displs[r], counts[r]};
  }
};

// Sends input block r (`send` layout, send type) to rank r, which keeps it as its output block
// `rank` (`recv` layout, receive type). `in_place`: the input is the output (`recv` layout; the
// counts must then be symmetric, as MPI requires), and `send` is not used.
Schedule alltoallv_linear(const Shape& shape, const VectorLayout& send, const VectorLayout& recv,
                          bool in_place);

}  // namespace scomm::coll
