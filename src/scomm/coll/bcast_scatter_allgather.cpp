#include "scomm/coll/bcast_scatter_allgather.hpp"

#include <algorithm>
#include <vector>

#include "scomm/coll/allgather_ring.hpp"
#include "scomm/coll/bcast_binomial.hpp"
#include "scomm/coll/gather_binomial.hpp"

namespace scomm::coll {
namespace {

// Pieces of ceil(data.count / p) elements, the relative rank's piece i at i * piece.
struct Pieces {
  Block data;
  std::int64_t piece = 0;

  std::int64_t start(int i) const noexcept { return std::min(i * piece, data.count); }
  // Pieces [first, first + n) as one block of the data.
  Block run(int first, int n) const noexcept {
    return {data.slot, data.offset + start(first), start(first + n) - start(first)};
  }
};

}  // namespace

void add_bcast_scatter_allgather(Schedule& schedule, const Shape& shape, Block data) {
  const int p = shape.size, me = shape.relative(shape.rank);
  const Pieces pieces{data, (data.count + p - 1) / p};
  const BinomialNode node = binomial_node(me, p);
  if (node.parent >= 0)
    schedule.next_round().receive(shape.absolute(node.parent),
                                  pieces.run(me, binomial_subtree_size(me, p)));
  schedule.next_round();
  for (int m = node.mask / 2; m > 0; m /= 2)
    if (me + m < p)
      schedule.send(shape.absolute(me + m), pieces.run(me + m, binomial_subtree_size(me + m, p)));
  std::vector<Block> blocks(static_cast<std::size_t>(p));
  for (int i = 0; i < p; ++i) blocks[static_cast<std::size_t>(i)] = pieces.run(i, 1);
  append_ring_allgather(schedule, shape, blocks, blocks[static_cast<std::size_t>(me)]);
}

Schedule bcast_scatter_allgather(const Shape& shape, std::int64_t count) {
  Schedule schedule;
  add_bcast_scatter_allgather(schedule, shape, Block{kOutput, 0, count});
  return schedule;
}

}  // namespace scomm::coll
