#include "scomm/coll/barrier_linear.hpp"

namespace scomm::coll {

Schedule barrier_linear(const Shape& shape) {
  Schedule schedule;
  const Block signal{kOutput, 0, 0};
  if (shape.rank != 0) {
    schedule.next_round().send(0, signal);
    schedule.next_round().receive(0, signal);
    return schedule;
  }
  if (shape.size == 1) return schedule;
  schedule.next_round().one_by_one();
  for (int r = 1; r < shape.size; ++r) schedule.receive(r, signal);
  schedule.next_round().one_by_one();
  for (int r = 1; r < shape.size; ++r) schedule.send(r, signal);
  return schedule;
}

}  // namespace scomm::coll
