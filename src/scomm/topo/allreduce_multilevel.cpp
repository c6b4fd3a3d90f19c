#include "scomm/topo/allreduce_multilevel.hpp"

#include "scomm/coll/allreduce_recursive_doubling.hpp"
#include "scomm/topo/bcast_multilevel.hpp"
#include "scomm/topo/reduce_multilevel.hpp"

namespace scomm::topo {

coll::Schedule allreduce_multilevel(const Levels& levels, const LevelCosts& costs,
                                    const coll::Shape& shape, std::int64_t count,
                                    std::int64_t bytes, bool in_place, bool commutative) {
  if (!reduce_multilevel_applies(levels, commutative))
    return coll::allreduce_recursive_doubling(shape, count, in_place);
  coll::Schedule schedule;
  const coll::Block output{coll::kOutput, 0, count};
  const coll::Block input = in_place ? output : coll::Block{coll::kInput, 0, count};
  const coll::Shape tree{shape.rank, shape.size, 0};
  add_reduce_multilevel(schedule, levels, costs, tree, input, output, bytes);
  add_bcast_multilevel(schedule, levels, costs, tree, output, bytes);
  return schedule;
}

}  // namespace scomm::topo
