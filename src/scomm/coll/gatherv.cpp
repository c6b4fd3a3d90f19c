#include <span>

#include "scomm/coll/data_args.hpp"
#include "scomm/coll/operations.hpp"
#include "scomm/coll/rooted_linear.hpp"

namespace scomm::coll {

// As gather, with the root's counts and displacements (significant at the root only, and part
// of the cache's key there).
p2p::Request gatherv(const Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                     void* recvbuf, const int* recvcounts, const int* displs, MPI_Datatype recvtype,
                     int root) {
  const RootedArgs args(call, root, Rooted::kGather, sendbuf, sendcount, sendtype, recvbuf, 0,
                        recvtype);
  const bool at_root = args.at_root();
  const int p = call.comm.size();
  if (at_root) check_vector(recvbuf, recvcounts, displs, p, recvtype);
  const Shape shape = call.shape(root);
  const Algorithm algorithm = call.choose(Operation::kGatherv, 0, p);
  if (algorithm == Algorithm::kNative)
    return launch_native(call, MPI_Igatherv, MPI_Gatherv, sendbuf, sendcount, sendtype, recvbuf,
                         recvcounts, displs, recvtype, root);
  const auto n = static_cast<std::size_t>(at_root ? p : 0);
  const std::span counts(recvcounts, n), offsets(displs, n);
  return launch(
      call, ScheduleKey{Operation::kGatherv, algorithm, root, args.in_place(), sendcount, 0},
      {counts, offsets},
      [&] { return gatherv_linear(shape, sendcount, counts, offsets, args.in_place()); },
      args.binding());
}

}  // namespace scomm::coll
