#include "scomm/coll/allgather_bruck.hpp"
#include "scomm/coll/allgather_recursive_doubling.hpp"
#include "scomm/coll/allgather_ring.hpp"
#include "scomm/coll/data_args.hpp"
#include "scomm/coll/operations.hpp"

namespace scomm::coll {
namespace {

Schedule build_allgather(Algorithm algorithm, const Shape& shape, std::int64_t sendcount,
                         std::int64_t recvcount, bool in_place) {
  switch (algorithm) {
    case Algorithm::kRing:
      return allgather_ring(shape, sendcount, recvcount, in_place);
    case Algorithm::kRecursiveDoubling:
      return allgather_recursive_doubling(shape, sendcount, recvcount, in_place);
    default:
      return allgather_bruck(shape, sendcount, recvcount, in_place);
  }
}

}  // namespace

// MPI_IN_PLACE: the rank's block is already in its receive buffer; the send arguments are
// ignored.
p2p::Request allgather(const Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                       void* recvbuf, int recvcount, MPI_Datatype recvtype) {
  const ExchangeArgs args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
  const bool in_place = args.in_place();
  const Shape shape = call.shape();
  const Algorithm algorithm =
      call.choose(Operation::kAllgather, bytes_of(recvcount, recvtype), shape.size);
  if (algorithm == Algorithm::kNative)
    return launch_native(call, MPI_Iallgather, MPI_Allgather, sendbuf, sendcount, sendtype, recvbuf,
                         recvcount, recvtype);
  return launch(
      call, ScheduleKey{Operation::kAllgather, algorithm, 0, in_place, sendcount, recvcount},
      [&] { return build_allgather(algorithm, shape, sendcount, recvcount, in_place); },
      args.binding());
}

}  // namespace scomm::coll
