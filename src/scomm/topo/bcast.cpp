#include "scomm/coll/bcast_bytes.hpp"
#include "scomm/topo/bcast_multilevel.hpp"
#include "scomm/topo/operations.hpp"

namespace scomm::topo {

// On the data's bytes: the pipelined tree cuts it into segments (coll/bcast_bytes.hpp).
p2p::Request bcast(const coll::Call& call, const Network& network, void* buffer, int count,
                   MPI_Datatype type, int root) {
  coll::check_root(call, root);
  coll::check_buffer(buffer, count, type);
  const coll::Shape shape = call.shape(root);
  const coll::BcastBytes view = coll::bcast_bytes(buffer, count, type, call.comm.channel().base());
  return coll::launch(
      call,
      coll::ScheduleKey{coll::Operation::kBcast, coll::Algorithm::kMultilevel, root, false, count,
                        0, view.packed, view.bytes},
      [&] {
        const Network& chosen = network.for_message(view.bytes);
        return coll::bcast_in_bytes(shape, view, [&](coll::Schedule& schedule, coll::Block data) {
          add_bcast_multilevel(schedule, chosen.levels(), chosen.costs(), shape, data, view.bytes);
        });
      },
      view.binding);
}

}  // namespace scomm::topo
