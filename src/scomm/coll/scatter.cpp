#include "scomm/coll/data_args.hpp"
#include "scomm/coll/operations.hpp"
#include "scomm/coll/rooted_linear.hpp"
#include "scomm/coll/scatter_binomial.hpp"

namespace scomm::coll {

// The send arguments count only at the root (MPI): elsewhere they are neither checked nor bound,
// and the root alone may pass MPI_IN_PLACE as its receive buffer (its block stays in place).
p2p::Request scatter(const Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                     void* recvbuf, int recvcount, MPI_Datatype recvtype, int root) {
  const RootedArgs args(call, root, Rooted::kScatter, sendbuf, sendcount, sendtype, recvbuf,
                        recvcount, recvtype);
  const bool at_root = args.at_root(), in_place = args.in_place();
  args.check_root_side(call, sendbuf, sendcount, sendtype);
  const Shape shape = call.shape(root);
  const std::int64_t bytes =
      at_root ? bytes_of(sendcount, sendtype) : bytes_of(recvcount, recvtype);
  const Algorithm algorithm = call.choose(Operation::kScatter, bytes, shape.size);
  if (algorithm == Algorithm::kNative)
    return launch_native(call, MPI_Iscatter, MPI_Scatter, sendbuf, sendcount, sendtype, recvbuf,
                         recvcount, recvtype, root);
  return launch(
      call,
      ScheduleKey{Operation::kScatter, algorithm, root, in_place, recvcount,
                  at_root ? sendcount : 0},
      [&] {
        return algorithm == Algorithm::kLinear
                   ? scatter_linear(shape, sendcount, recvcount, in_place)
                   : scatter_binomial(shape, sendcount, recvcount, in_place);
      },
      args.binding());
}

}  // namespace scomm::coll
