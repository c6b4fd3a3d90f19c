#include <span>

#include "scomm/coll/data_args.hpp"
#include "scomm/coll/operations.hpp"
#include "scomm/coll/rooted_linear.hpp"

namespace scomm::coll {

// As scatter, with the root's counts and displacements (significant at the root only, and part
// of the cache's key there).
p2p::Request scatterv(const Call& call, const void* sendbuf, const int* sendcounts,
                      const int* displs, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root) {
  const RootedArgs args(call, root, Rooted::kScatter, sendbuf, 0, sendtype, recvbuf, recvcount,
                        recvtype);
  const bool at_root = args.at_root();
  const int p = call.comm.size();
  if (at_root) check_vector(sendbuf, sendcounts, displs, p, sendtype);
  const Shape shape = call.shape(root);
  const Algorithm algorithm = call.choose(Operation::kScatterv, 0, p);
  if (algorithm == Algorithm::kNative)
    return launch_native(call, MPI_Iscatterv, MPI_Scatterv, sendbuf, sendcounts, displs, sendtype,
                         recvbuf, recvcount, recvtype, root);
  const auto n = static_cast<std::size_t>(at_root ? p : 0);
  const std::span counts(sendcounts, n), offsets(displs, n);
  return launch(
      call, ScheduleKey{Operation::kScatterv, algorithm, root, args.in_place(), recvcount, 0},
      {counts, offsets},
      [&] { return scatterv_linear(shape, counts, offsets, recvcount, args.in_place()); },
      args.binding());
}

}  // namespace scomm::coll
