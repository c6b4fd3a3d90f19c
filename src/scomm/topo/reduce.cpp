#include "scomm/base/error.hpp"
#include "scomm/coll/reduction.hpp"
#include "scomm/topo/operations.hpp"
#include "scomm/topo/reduce_multilevel.hpp"

namespace scomm::topo {

p2p::Request reduce(const coll::Call& call, const Network& network, const void* sendbuf,
                    void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root) {
  coll::check_root(call, root);
  const coll::Shape shape = call.shape(root);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (shape.rank == root) {
    coll::check_reduction(sendbuf, count, recvbuf, count, type, op);
  } else {
    if (in_place) throw Error(ErrorClass::kBuffer, "MPI_IN_PLACE at a rank other than the root");
    coll::check_data(sendbuf, count, type);
    coll::check_op(op, type);
  }
  const bool commutative = coll::is_commutative(op);
  const std::int64_t bytes = coll::bytes_of(count, type);
  return coll::launch(
      call,
      coll::ScheduleKey{coll::Operation::kReduce, coll::Algorithm::kMultilevel, root, in_place,
                        count, commutative ? 1 : 0, false, bytes},
      [&] {
        const Network& chosen = network.for_message(bytes);
        return reduce_multilevel(chosen.levels(), chosen.costs(), shape, count, bytes, in_place,
                                 commutative);
      },
      coll::reduction_binding(sendbuf, recvbuf, type, op));
}

}  // namespace scomm::topo
