// Linear all-to-all with counts (all_to_all_linear.hpp).
#pragma once

#include "scomm/coll/all_to_all_linear.hpp"

namespace scomm::coll {

// Sends input block r (`send` layout, send type) to rank r, which keeps it as its output block
// `rank` (`recv` layout, receive type). `in_place`: the input is the output (`recv` layout; the
// counts must then be symmetric, as MPI requires), and `send` is not used.
inline Schedule alltoallv_linear(const Shape& shape, const VectorLayout& send,
                                 const VectorLayout& recv, bool in_place) {
  return in_place ? all_to_all_in_place(shape, recv) : all_to_all_linear(shape, send, recv, true);
}

}  // namespace scomm::coll
