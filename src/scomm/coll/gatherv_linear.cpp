#include "scomm/coll/gatherv_linear.hpp"

namespace scomm::coll {

Schedule gatherv_linear(const Shape& shape, std::int64_t sendcount, std::span<const int> counts,
                        std::span<const int> displs, bool in_place) {
  Schedule schedule;
  const Block mine{kInput, 0, sendcount};
  if (shape.rank != shape.root) {
    schedule.next_round().send(shape.root, mine);
    return schedule;
  }
  schedule.next_round();
  for (int r = 0; r < shape.size; ++r) {
    const auto i = static_cast<std::size_t>(r);
    const Block block{kOutput, displs[i], counts[i]};
    if (r != shape.root)
      schedule.receive(r, block);
    else if (!in_place)
      schedule.copy(mine, block);
  }
  return schedule;
}

}  // namespace scomm::coll
