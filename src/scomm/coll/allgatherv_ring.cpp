#include "scomm/coll/allgatherv_ring.hpp"

#include <vector>

#include "scomm/coll/allgather_ring.hpp"

namespace scomm::coll {

Schedule allgatherv_ring(const Shape& shape, std::int64_t sendcount, std::span<const int> counts,
                         std::span<const int> displs, bool in_place) {
  Schedule schedule;
  std::vector<Block> blocks(static_cast<std::size_t>(shape.size));
  for (std::size_t r = 0; r < blocks.size(); ++r) blocks[r] = Block{kOutput, displs[r], counts[r]};
  const Block own = blocks[static_cast<std::size_t>(shape.rank)];
  append_ring_allgather(schedule, shape, blocks, own_source(sendcount, own, in_place));
  copy_own_block(schedule, sendcount, own, in_place);
  return schedule;
}

}  // namespace scomm::coll
