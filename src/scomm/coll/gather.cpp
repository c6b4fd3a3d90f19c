#include "scomm/coll/data_args.hpp"
#include "scomm/coll/gather_binomial.hpp"
#include "scomm/coll/operations.hpp"
#include "scomm/coll/rooted_linear.hpp"

namespace scomm::coll {

// The receive arguments count only at the root (MPI): elsewhere they are neither checked nor
// bound, and the root alone may pass MPI_IN_PLACE (its block is then in its receive buffer).
p2p::Request gather(const Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                    void* recvbuf, int recvcount, MPI_Datatype recvtype, int root) {
  const RootedArgs args(call, root, Rooted::kGather, sendbuf, sendcount, sendtype, recvbuf,
                        recvcount, recvtype);
  const bool at_root = args.at_root(), in_place = args.in_place();
  args.check_root_side(call, recvbuf, recvcount, recvtype);
  const Shape shape = call.shape(root);
  const std::int64_t bytes =
      at_root ? bytes_of(recvcount, recvtype) : bytes_of(sendcount, sendtype);
  const Algorithm algorithm = call.choose(Operation::kGather, bytes, shape.size);
  if (algorithm == Algorithm::kNative)
    return launch_native(call, MPI_Igather, MPI_Gather, sendbuf, sendcount, sendtype, recvbuf,
                         recvcount, recvtype, root);
  return launch(
      call,
      ScheduleKey{Operation::kGather, algorithm, root, in_place, sendcount,
                  at_root ? recvcount : 0},
      [&] {
        return algorithm == Algorithm::kLinear
                   ? gather_linear(shape, sendcount, recvcount, in_place)
                   : gather_binomial(shape, sendcount, recvcount, in_place);
      },
      args.binding());
}

}  // namespace scomm::coll
