#include "scomm/coll/alltoall_bruck.hpp"
#include "scomm/coll/alltoall_linear.hpp"
#include "scomm/coll/alltoall_pairwise.hpp"
#include "scomm/coll/data_args.hpp"
#include "scomm/coll/operations.hpp"

namespace scomm::coll {

// MPI_IN_PLACE: the blocks to send are in the receive buffer, replaced by the ones received; the
// send arguments are ignored.
p2p::Request alltoall(const Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                      void* recvbuf, int recvcount, MPI_Datatype recvtype) {
  const ExchangeArgs args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
  const bool in_place = args.in_place();
  const Shape shape = call.shape();
  const Algorithm algorithm =
      call.choose(Operation::kAlltoall, bytes_of(recvcount, recvtype), shape.size);
  if (algorithm == Algorithm::kNative)
    return launch_native(call, MPI_Ialltoall, MPI_Alltoall, sendbuf, sendcount, sendtype, recvbuf,
                         recvcount, recvtype);
  return launch(
      call, ScheduleKey{Operation::kAlltoall, algorithm, 0, in_place, sendcount, recvcount},
      [&] {
        switch (algorithm) {
          case Algorithm::kBruck:
            return alltoall_bruck(shape, sendcount, recvcount, in_place);
          case Algorithm::kLinear:
            return alltoall_linear(shape, sendcount, recvcount, in_place);
          default:
            return alltoall_pairwise(shape, sendcount, recvcount, in_place);
        }
      },
      args.binding());
}

}  // namespace scomm::coll
