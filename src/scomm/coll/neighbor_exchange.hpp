// The neighborhood collectives' schedule: one round, a receive from every in-neighbor into its
// block and a send to every out-neighbor of its block, straight from and into the user's buffers
// (MPI_Neighbor_allgather, _alltoall and their v-forms are this exchange over different block
// layouts). Neighbors are communicator ranks in MPI's order (group/neighborhood.hpp); a negative
// one is no neighbor, its block neither sent nor received.
#pragma once

#include <cstddef>
#include <span>

#include "scomm/coll/block_layout.hpp"
#include "scomm/coll/schedule.hpp"

namespace scomm::coll {

// `pairs_swapped`: the receives are posted with each pair of blocks (2k, 2k + 1) swapped, so that
// the two messages of one process that is both neighbors of a grid dimension land where MPI says
// (group::Neighborhood::pairs_swapped); repeated graph edges match in list order.
template <typename Send, typename Recv>
Schedule neighbor_exchange(std::span<const int> sources, std::span<const int> destinations,
                           bool pairs_swapped, const Send& send, const Recv& recv) {
  Schedule schedule;
  schedule.next_round();
  for (std::size_t k = 0; k < sources.size(); ++k) {
    const std::size_t i = pairs_swapped ? k ^ 1 : k;
    if (sources[i] >= 0) schedule.receive(sources[i], recv.block(static_cast<int>(i)));
  }
  for (std::size_t i = 0; i < destinations.size(); ++i)
    if (destinations[i] >= 0) schedule.send(destinations[i], send.block(static_cast<int>(i)));
  return schedule;
}

}  // namespace scomm::coll
