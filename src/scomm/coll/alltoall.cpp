#include "scomm/coll/alltoall_bruck.hpp"
#include "scomm/coll/alltoall_pairwise.hpp"
#include "scomm/coll/data_args.hpp"
#include "scomm/coll/operations.hpp"

namespace scomm::coll {

// MPI_IN_PLACE: the blocks to send are in the receive buffer, replaced by the ones received; the
// send arguments are ignored.
p2p::Request alltoall(const Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                      void* recvbuf, int recvcount, MPI_Datatype recvtype) {
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (!in_place) {
    check_data(sendbuf, sendcount, sendtype);
    check_not_aliased(sendbuf, recvbuf, recvcount);
  }
  check_buffer(recvbuf, recvcount, recvtype);
  const Shape shape = call.shape();
  const Algorithm algorithm =
      call.selection.choose(Operation::kAlltoall, bytes_of(recvcount, recvtype), shape.size);
  if (algorithm == Algorithm::kNative)
    return launch_native(call, [&](MPI_Comm comm, MPI_Request* request) {
      return request != nullptr
                 ? MPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                 request)
                 : MPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    });
  return launch(
      call, ScheduleKey{Operation::kAlltoall, algorithm, 0, in_place, sendcount, recvcount},
      [&] {
        return algorithm == Algorithm::kBruck
                   ? alltoall_bruck(shape, sendcount, recvcount, in_place)
                   : alltoall_pairwise(shape, sendcount, recvcount, in_place);
      },
      Binding{in_place ? nullptr : sendbuf, in_place ? recvtype : sendtype, recvbuf, recvtype,
              MPI_OP_NULL});
}

}  // namespace scomm::coll
