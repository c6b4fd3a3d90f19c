// The neighborhood collectives' schedule: one round, a receive from every in-neighbor into its
// block and a send to every out-neighbor of its block, straight from and into the user's buffers
// (MPI_Neighbor_allgather, _alltoall and their v-forms are this exchange over different block
// layouts). Neighbors are communicator ranks in MPI's order (group/neighborhood.hpp); a negative
// one is no neighbor, its block neither sent nor received.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "scomm/coll/block_layout.hpp"
#include "scomm/coll/schedule.hpp"

namespace scomm::coll {

// `pairs_swapped`: the receives are posted with each pair of blocks (2k, 2k + 1) swapped, so that
// the two messages of one process that is both neighbors of a grid dimension land where MPI says
// (group::Neighborhood::pairs_swapped); repeated graph edges match in list order. A message of
// the process `self` to itself is a local copy into the block it would match, made while the
// other messages are in flight (the executor reports a truncation as MPI would).
template <typename Send, typename Recv>
Schedule neighbor_exchange(int self, std::span<const int> sources,
                           std::span<const int> destinations, bool pairs_swapped, const Send& send,
                           const Recv& recv) {
  Schedule schedule(views_named(send, recv));
  schedule.next_round();
  std::vector<Block> from_self;  // in the order the receives would be posted
  for (std::size_t k = 0; k < sources.size(); ++k) {
    const std::size_t i = pairs_swapped ? k ^ 1 : k;
    const Block block = recv.block(static_cast<int>(i));
    if (sources[i] == self)
      from_self.push_back(block);
    else if (sources[i] >= 0)
      schedule.receive(sources[i], block);
  }
  std::size_t next_from_self = 0;
  for (std::size_t i = 0; i < destinations.size(); ++i) {
    const Block block = send.block(static_cast<int>(i));
    if (destinations[i] == self && next_from_self < from_self.size())
      schedule.copy(block, from_self[next_from_self++]).local_first();
    else if (destinations[i] >= 0)
      schedule.send(destinations[i], block);
  }
  // Lists that disagree on the edges to self (MPI: an erroneous program): the messages left over
  // go as messages, as MPI's would.
  for (; next_from_self < from_self.size(); ++next_from_self)
    schedule.receive(self, from_self[next_from_self]);
  return schedule;
}

}  // namespace scomm::coll
