#include "scomm/topo/allgather_multilevel.hpp"

#include "scomm/topo/bcast_multilevel.hpp"
#include "scomm/topo/gather_multilevel.hpp"

namespace scomm::topo {

coll::Schedule allgather_multilevel(const Levels& levels, const LevelCosts& costs,
                                    const coll::Shape& shape, std::int64_t sendcount,
                                    std::int64_t recvcount, std::int64_t bytes, bool in_place) {
  coll::Schedule schedule;
  const coll::Shape tree{shape.rank, shape.size, 0};
  const coll::Block block = in_place ? coll::Block{coll::kOutput, shape.rank * recvcount, recvcount}
                                     : coll::Block{coll::kInput, 0, sendcount};
  add_gather_multilevel(schedule, levels, costs, tree, block,
                        in_place ? coll::TypeId::kRecv : coll::TypeId::kSend, recvcount, bytes);
  add_bcast_multilevel(schedule, levels, costs, tree,
                       coll::Block{coll::kOutput, 0, shape.size * recvcount}, shape.size * bytes,
                       recvcount);
  return schedule;
}

}  // namespace scomm::topo
