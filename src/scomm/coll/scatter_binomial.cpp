#include "scomm/coll/scatter_binomial.hpp"

#include <algorithm>

#include "scomm/coll/bcast_binomial.hpp"
#include "scomm/coll/gather_binomial.hpp"
#include "scomm/coll/rank_blocks.hpp"

namespace scomm::coll {
namespace {

Schedule scatter_from_root(const Shape& shape, std::int64_t sendcount, std::int64_t recvcount,
                           bool in_place) {
  Schedule schedule;
  const int p = shape.size;
  const RankedBuffer input{kInput, sendcount};
  // The wrapping run (at most one) is copied into a row first, in a round of its own.
  Block wrapped_run;
  for (int m = 1; m < p; m *= 2) {
    const int first = shape.absolute(m), n = binomial_subtree_size(m, p);
    if (!wraps(first, n, p)) continue;
    wrapped_run = Block{schedule.add_temp(TypeId::kSend, n * sendcount), 0, n * sendcount};
    copy_run(schedule, RunBuffer{wrapped_run.slot, 0, sendcount}, input, first, n, p, false);
  }
  schedule.next_round();
  // Largest subtree first: it has the longest way to go. A child's receive is its first step,
  // so the sends may also complete one at a time (Round::one_by_one).
  for (int m = ceil_pow2(p) / 2; m > 0; m /= 2) {
    if (m >= p) continue;
    const int first = shape.absolute(m), n = binomial_subtree_size(m, p);
    schedule.send(first, wraps(first, n, p) ? wrapped_run : ranked_blocks(input, first, n));
  }
  if (p > 2) schedule.one_by_one();
  if (!in_place) schedule.copy(ranked_blocks(input, shape.root, 1), Block{kOutput, 0, recvcount});
  return schedule;
}

}  // namespace

Schedule scatter_binomial(const Shape& shape, std::int64_t sendcount, std::int64_t recvcount,
                          bool in_place) {
  const int me = shape.relative(shape.rank);
  if (me == 0) return scatter_from_root(shape, sendcount, recvcount, in_place);
  Schedule schedule;
  const BinomialNode node = binomial_node(me, shape.size);
  const int n = std::min(node.mask, shape.size - me);
  const Block mine{kOutput, 0, recvcount};
  const int parent = shape.absolute(node.parent);
  if (n == 1) {  // a leaf receives straight into its output
    schedule.next_round().receive(parent, mine);
    return schedule;
  }
  const Slot run = schedule.add_temp(TypeId::kRecv, n * recvcount);
  schedule.next_round().receive(parent, Block{run, 0, n * recvcount});
  schedule.next_round();
  for (int m = node.mask / 2; m > 0; m /= 2)
    if (me + m < shape.size)
      schedule.send(
          shape.absolute(me + m),
          Block{run, m * recvcount, binomial_subtree_size(me + m, shape.size) * recvcount});
  schedule.one_by_one();  // as the root's sends; an inner node has at least one child
  schedule.copy(Block{run, 0, recvcount}, mine);
  return schedule;
}

}  // namespace scomm::coll
