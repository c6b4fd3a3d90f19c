// What the neighborhood collectives share: the communicator's virtual topology, their argument
// checks, and their schedule over the caller's neighbors.
#pragma once

#include <mpi.h>

#include <span>

#include "scomm/coll/collective.hpp"
#include "scomm/coll/data_args.hpp"
#include "scomm/coll/neighbor_exchange.hpp"
#include "scomm/group/neighborhood.hpp"

namespace scomm::coll {

// The virtual topology of the call's communicator, or Error(kTopology).
const group::VirtualTopology& topology_of(const Call& call);

// The arguments of a neighborhood collective: Error(kBuffer) for MPI_IN_PLACE (which means
// nothing here) or a send buffer that is the receive buffer; with one count a side, each side's
// block where the caller has neighbors on that side (else its buffer may be null).
ExchangeArgs neighbor_args(const void* sendbuf, MPI_Datatype sendtype, void* recvbuf,
                           MPI_Datatype recvtype);
ExchangeArgs neighbor_args(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                           int recvcount, MPI_Datatype recvtype, group::Degrees degrees);

// Error(kArg) for a null counts or displacements array (either may be null for no neighbor), then
// check_data for each of the `degree` blocks of `buffer`; the arrays as spans of `degree`.
struct NeighborVector {
  std::span<const int> counts;
  std::span<const int> displs;
};
NeighborVector checked_vector(const void* buffer, const int* counts, const int* displs, int degree,
                              MPI_Datatype type);

// The algorithm of a neighborhood all-to-all (either form): the selection's, except that "native"
// runs scomm's schedule where the neighbors name one process twice on a side
// (group::has_repeated_neighbors). There the base MPIs' own have matched the wrong blocks, as the
// tests saw: Open MPI 4.1's nonblocking ones deliver block s into block s, not s ^ 1, on a grid
// (open-mpi/ompi#14430, fixed after 5.0), and MPICH 4.0's blocking ones match a graph's repeated
// edges and a grid's dimensions of 1 in other orders than MPI-4.1's (pmodels/mpich#7945).
Algorithm alltoall_algorithm(const Call& call, Operation operation,
                             const group::VirtualTopology& topology);

// neighbor_exchange over the caller's neighbors in `topology`.
template <typename Send, typename Recv>
Schedule neighbor_exchange(const group::VirtualTopology& topology, int rank, const Send& send,
                           const Recv& recv) {
  const group::Neighborhood neighbors = group::neighborhood_of(topology, rank);
  return neighbor_exchange(rank, neighbors.sources, neighbors.destinations, neighbors.pairs_swapped,
                           send, recv);
}

}  // namespace scomm::coll
