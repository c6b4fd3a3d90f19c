#include "scomm/coll/scatterv_linear.hpp"

namespace scomm::coll {

Schedule scatterv_linear(const Shape& shape, std::span<const int> counts,
                         std::span<const int> displs, std::int64_t recvcount, bool in_place) {
  Schedule schedule;
  const Block mine{kOutput, 0, recvcount};
  if (shape.rank != shape.root) {
    schedule.next_round().receive(shape.root, mine);
    return schedule;
  }
  schedule.next_round();
  for (int r = 0; r < shape.size; ++r) {
    const auto i = static_cast<std::size_t>(r);
    const Block block{kInput, displs[i], counts[i]};
    if (r != shape.root)
      schedule.send(r, block);
    else if (!in_place)
      schedule.copy(block, mine);
  }
  return schedule;
}

}  // namespace scomm::coll
