// What the neighborhood collectives share: the communicator's virtual topology, the algorithm,
// their argument checks, and their schedule over the caller's neighbors.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <span>

#include "scomm/coll/collective.hpp"
#include "scomm/coll/data_args.hpp"
#include "scomm/coll/neighbor_exchange.hpp"
#include "scomm/group/neighborhood.hpp"

namespace scomm::coll {

// check_data for one side of the exchange, with `degree` neighbors on it. A side without any
// moves nothing, so its buffer may be null; its count and type are checked all the same, as MPI's
// are (an error must not depend on the caller's degree).
void check_side(const void* buffer, std::int64_t count, MPI_Datatype type, int degree);

// Error(kArg) for a null counts or displacements array (either may be null for no neighbor), then
// check_data for each of the `degree` blocks of `buffer`; the arrays as spans of `degree`. The
// type is checked with no neighbor too.
struct NeighborVector {
  std::span<const int> counts;
  std::span<const int> displs;
};
NeighborVector checked_vector(const void* buffer, const int* counts, const int* displs, int degree,
                              MPI_Datatype type);

// One neighborhood collective at its entry point: the communicator's virtual topology (or
// Error(kTopology)), the caller's degrees, the algorithm, and the schedule's launch.
class NeighborCall {
 public:
  NeighborCall(const Call& call, Operation operation);

  const group::Degrees& degrees() const noexcept { return degrees_; }
  bool native() const noexcept { return algorithm_ == Algorithm::kNative; }

  // The arguments: Error(kBuffer) for MPI_IN_PLACE (which means nothing here) or a send buffer
  // that is the receive buffer; with one count a side, check_side for each.
  ExchangeArgs args(const void* sendbuf, MPI_Datatype sendtype, void* recvbuf,
                    MPI_Datatype recvtype) const;
  ExchangeArgs args(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    int recvcount, MPI_Datatype recvtype) const;

  // A collective of one count a side (allgather, alltoall): `send` lays out the send buffer's
  // blocks, the receive buffer holds one block a neighbor; "native" runs MPI's own `nonblocking`
  // or `blocking` call.
  template <typename Send, typename Nonblocking, typename Blocking>
  p2p::Request exchange(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        int recvcount, MPI_Datatype recvtype, const Send& send,
                        Nonblocking nonblocking, Blocking blocking) const {
    const ExchangeArgs checked = args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    if (native())
      return launch_native(call_, nonblocking, blocking, sendbuf, sendcount, sendtype, recvbuf,
                           recvcount, recvtype);
    return launch(sendcount, recvcount, {}, send, RegularLayout{kOutput, recvcount},
                  checked.binding());
  }

  // The exchange over the caller's neighbors, `send` and `recv` laying out the blocks; `count`,
  // `extra` and `vectors` as the schedule's cache key takes them.
  template <typename Send, typename Recv>
  p2p::Request launch(std::int64_t count, std::int64_t extra, ScheduleCache::Vectors vectors,
                      const Send& send, const Recv& recv, const Binding& binding) const {
    return coll::launch(
        call_, ScheduleKey{operation_, algorithm_, 0, false, count, extra}, vectors,
        [&] {
          const group::Neighborhood n = group::neighborhood_of(topology_, call_.comm.rank());
          return neighbor_exchange(call_.comm.rank(), n.sources, n.destinations, n.pairs_swapped,
                                   send, recv);
        },
        binding);
  }

 private:
  const Call& call_;
  Operation operation_;
  const group::VirtualTopology& topology_;
  group::Degrees degrees_;
  Algorithm algorithm_;
};

}  // namespace scomm::coll
