// Linear gather and scatter, mirror images of each other: every rank's block moves straight
// between it and the root, which posts all its receives (gather) or sends (scatter) at once, each
// into or from its place. One round, each byte moved once: p - 1 messages at the root, whose link
// is then the bottleneck, against the binomial tree's forwarding of half the data through
// intermediate ranks -- the better trade for long blocks, and the only one for v-forms, where no
// tree can keep the blocks in runs without knowing every count everywhere.
#pragma once

#include <cstdint>
#include <span>

#include "scomm/coll/all_to_all_linear.hpp"

namespace scomm::coll {

enum class Flow : std::uint8_t { kGather, kScatter };

// `blocks`: the root's blocks, rank r's at blocks.block(r) (root only); `mine`: this rank's block
// of the other buffer. `in_place`: the root's own block is already where it belongs.
template <typename Layout>
Schedule rooted_linear(const Shape& shape, Flow flow, const Layout& blocks, Block mine,
                       bool in_place) {
  const bool gather = flow == Flow::kGather;
  Schedule schedule;
  schedule.next_round();
  if (shape.rank != shape.root) {
    if (gather)
      schedule.send(shape.root, mine);
    else
      schedule.receive(shape.root, mine);
    return schedule;
  }
  for (int r = 0; r < shape.size; ++r) {
    const Block block = blocks.block(r);
    if (r != shape.root) {
      if (gather)
        schedule.receive(r, block);
      else
        schedule.send(r, block);
    } else if (!in_place) {
      if (gather)
        schedule.copy(mine, block);
      else
        schedule.copy(block, mine);
    }
  }
  if (shape.size > 1) schedule.one_by_one();  // every other rank's schedule is its one transfer
  return schedule;
}

// Gathers `sendcount` elements of the send type from every rank into the root's output, rank r's
// block (`recvcount` elements of the receive type) at r * recvcount.
inline Schedule gather_linear(const Shape& shape, std::int64_t sendcount, std::int64_t recvcount,
                              bool in_place) {
  return rooted_linear(shape, Flow::kGather, RegularLayout{kOutput, recvcount},
                       Block{kInput, 0, sendcount}, in_place);
}

// As gather_linear, rank r's block at displs[r], counts[r] elements of the receive type (counts
// and displs: root only).
inline Schedule gatherv_linear(const Shape& shape, std::int64_t sendcount,
                               std::span<const int> counts, std::span<const int> displs,
                               bool in_place) {
  return rooted_linear(shape, Flow::kGather, VectorLayout{kOutput, counts, displs},
                       Block{kInput, 0, sendcount}, in_place);
}

// Scatters the root's `sendcount`-element blocks (send type, in rank order) to every rank's
// output (`recvcount` elements of the receive type).
inline Schedule scatter_linear(const Shape& shape, std::int64_t sendcount, std::int64_t recvcount,
                               bool in_place) {
  return rooted_linear(shape, Flow::kScatter, RegularLayout{kInput, sendcount},
                       Block{kOutput, 0, recvcount}, in_place);
}

// As scatter_linear, rank r's block at displs[r], counts[r] elements (the root's choice).
inline Schedule scatterv_linear(const Shape& shape, std::span<const int> counts,
                                std::span<const int> displs, std::int64_t recvcount,
                                bool in_place) {
  return rooted_linear(shape, Flow::kScatter, VectorLayout{kInput, counts, displs},
                       Block{kOutput, 0, recvcount}, in_place);
}

}  // namespace scomm::coll
