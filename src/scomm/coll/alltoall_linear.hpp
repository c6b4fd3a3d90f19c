// Linear all-to-all (all_to_all_linear.hpp): every block in one round.
#pragma once

#include "scomm/coll/all_to_all_linear.hpp"

namespace scomm::coll {

// Input block r (`sendcount` elements of the send type) goes to rank r as its output block
// `rank` (`recvcount` of the receive type). `in_place`: the output holds the blocks to send.
inline Schedule alltoall_linear(const Shape& shape, std::int64_t sendcount, std::int64_t recvcount,
                                bool in_place) {
  const RegularLayout recv{kOutput, recvcount};
  return in_place ? all_to_all_in_place(shape, recv)
                  : all_to_all_linear(shape, RegularLayout{kInput, sendcount}, recv, true);
}

}  // namespace scomm::coll
