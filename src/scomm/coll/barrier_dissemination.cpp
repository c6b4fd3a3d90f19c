#include "scomm/coll/barrier_dissemination.hpp"

namespace scomm::coll {

Schedule barrier_dissemination(const Shape& shape) {
  Schedule schedule;
  const int p = shape.size;
  for (int distance = 1; distance < p; distance *= 2) {
    schedule.next_round()
        .receive((shape.rank - distance + p) % p, Block{kOutput, 0, 0})
        .send((shape.rank + distance) % p, Block{kOutput, 0, 0});
  }
  return schedule;
}

}  // namespace scomm::coll
