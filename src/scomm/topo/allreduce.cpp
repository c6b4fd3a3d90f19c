#include "scomm/coll/reduction.hpp"
#include "scomm/topo/allreduce_multilevel.hpp"
#include "scomm/topo/operations.hpp"

namespace scomm::topo {

p2p::Request allreduce(const coll::Call& call, const Network& network, const void* sendbuf,
                       void* recvbuf, int count, MPI_Datatype type, MPI_Op op) {
  coll::check_reduction(sendbuf, count, recvbuf, count, type, op);
  const coll::Shape shape = call.shape();
  const bool in_place = sendbuf == MPI_IN_PLACE, commutative = coll::is_commutative(op);
  const std::int64_t bytes = coll::bytes_of(count, type);
  return coll::launch(
      call,
      coll::ScheduleKey{coll::Operation::kAllreduce, coll::Algorithm::kMultilevel, 0, in_place,
                        count, commutative ? 1 : 0, false, bytes},
      [&] {
        const Network& chosen = network.for_message(bytes);
        return allreduce_multilevel(chosen.levels(), chosen.costs(), shape, count, bytes, in_place,
                                    commutative);
      },
      coll::reduction_binding(sendbuf, recvbuf, type, op));
}

}  // namespace scomm::topo
