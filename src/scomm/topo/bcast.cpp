#include "scomm/topo/bcast_multilevel.hpp"
#include "scomm/topo/operations.hpp"

namespace scomm::topo {

p2p::Request bcast(const coll::Call& call, const Network& network, void* buffer, int count,
                   MPI_Datatype type, int root) {
  coll::check_root(call, root);
  coll::check_data(buffer, count, type);
  const coll::Shape shape = call.shape(root);
  const std::int64_t bytes = coll::bytes_of(count, type);
  return coll::launch(
      call,
      coll::ScheduleKey{coll::Operation::kBcast, coll::Algorithm::kMultilevel, root, false, count,
                        bytes},
      [&] {
        const Network& chosen = network.for_message(bytes);
        return bcast_multilevel(chosen.levels(), chosen.costs(), shape, count, bytes);
      },
      coll::Binding{buffer, type, buffer, type, MPI_OP_NULL});
}

}  // namespace scomm::topo
