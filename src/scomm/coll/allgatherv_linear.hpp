// Linear allgatherv (all_to_all_linear.hpp): each rank sends its block to every other in one
// round.
#pragma once

#include <span>

#include "scomm/coll/all_to_all_linear.hpp"

namespace scomm::coll {

// As allgatherv_ring (allgatherv_ring.hpp): `sendcount` elements of the send type from every
// rank into rank r's block of every output, at displs[r], counts[r] elements of the receive
// type. `in_place`: the own block is already in place, and is what is sent.
inline Schedule allgatherv_linear(const Shape& shape, std::int64_t sendcount,
                                  std::span<const int> counts, std::span<const int> displs,
                                  bool in_place) {
  const VectorLayout recv{kOutput, counts, displs};
  const SameBlock own{in_place ? recv.block(shape.rank) : Block{kInput, 0, sendcount}};
  return all_to_all_linear(shape, own, recv, !in_place);
}

}  // namespace scomm::coll
