#include "scomm/topo/bcast_multilevel.hpp"
#include "scomm/topo/level_costs.hpp"
#include "scomm/topo/operations.hpp"

namespace scomm::topo {

p2p::Request bcast(const coll::Call& call, const Levels& levels, void* buffer, int count,
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
        return bcast_multilevel(levels, LevelCosts::defaults(levels.depth()), shape, count, bytes);
      },
      coll::Binding{buffer, type, buffer, type, MPI_OP_NULL});
}

}  // namespace scomm::topo
