#include "scomm/coll/gather_binomial.hpp"

#include <algorithm>

#include "scomm/coll/bcast_binomial.hpp"
#include "scomm/coll/rank_blocks.hpp"

namespace scomm::coll {
namespace {

// Each child's run goes straight to its place in the output, unless it wraps.
Schedule gather_at_root(const Shape& shape, std::int64_t sendcount, std::int64_t recvcount,
                        bool in_place) {
  Schedule schedule;
  const int p = shape.size;
  const RankedBuffer output{kOutput, recvcount};
  // A child's send is its last step, after its own subtree's: none waits for a sibling, so the
  // receives may also complete one at a time (Round::one_by_one).
  schedule.next_round();
  for (int m = 1; m < p; m *= 2) {
    const int first = shape.absolute(m), n = binomial_subtree_size(m, p);
    if (!wraps(first, n, p)) {
      schedule.receive(first, ranked_blocks(output, first, n));
      continue;
    }
    const Slot run = schedule.add_temp(TypeId::kRecv, n * recvcount);
    schedule.receive(first, Block{run, 0, n * recvcount});
    copy_run(schedule, RunBuffer{run, 0, recvcount}, output, first, n, p, true);
  }
  if (p > 2) schedule.one_by_one();
  if (!in_place) schedule.copy(Block{kInput, 0, sendcount}, ranked_blocks(output, shape.root, 1));
  return schedule;
}

}  // namespace

int binomial_subtree_size(int relative, int size) {
  return std::min(binomial_node(relative, size).mask, size - relative);
}

Schedule gather_binomial(const Shape& shape, std::int64_t sendcount, std::int64_t recvcount,
                         bool in_place) {
  const int me = shape.relative(shape.rank);
  if (me == 0) return gather_at_root(shape, sendcount, recvcount, in_place);
  Schedule schedule;
  const BinomialNode node = binomial_node(me, shape.size);
  const int n = std::min(node.mask, shape.size - me);
  const Block mine{kInput, 0, sendcount};
  const int parent = shape.absolute(node.parent);
  if (n == 1) {  // a leaf sends straight from its input
    schedule.next_round().send(parent, mine);
    return schedule;
  }
  // The subtree's blocks in relative order, the own block first.
  const Slot run = schedule.add_temp(TypeId::kSend, n * sendcount);
  schedule.next_round();
  for (int m = 1; m < node.mask && me + m < shape.size; m *= 2)
    schedule.receive(
        shape.absolute(me + m),
        Block{run, m * sendcount, binomial_subtree_size(me + m, shape.size) * sendcount});
  schedule.one_by_one();  // as the root's receives; an inner node has at least one child
  schedule.copy(mine, Block{run, 0, sendcount});
  schedule.next_round().send(parent, Block{run, 0, n * sendcount});
  return schedule;
}

}  // namespace scomm::coll
