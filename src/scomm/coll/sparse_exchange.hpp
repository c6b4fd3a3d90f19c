// Dynamic sparse data exchange (Hoefler, Siebert and Lumsdaine, PPoPP 2010: NBX). Each member
// sends blocks to a few others; none knows who sends to it. Every block goes as a synchronous
// send; a member receives whatever arrives while it waits for its own sends to be matched, then
// joins a nonblocking barrier, and the exchange ends when the barrier does: O(blocks + log p) per
// member, where learning the senders first takes an all-to-all of p counts.
#pragma once

#include <utility>
#include <vector>

#include "scomm/coll/collective.hpp"

namespace scomm::coll {

// A block of ints and the member it goes to (or came from).
struct SparseBlock {
  int member = 0;
  std::vector<int> ints;
};

// Collective over call.comm (a blocking call), whose user tag `tag` no other message may use
// meanwhile: sends each of `outgoing` (at most one block per member), returns the blocks received
// in order of their senders' ranks.
std::vector<SparseBlock> sparse_exchange(const Call& call, const std::vector<SparseBlock>& outgoing,
                                         int tag);

}  // namespace scomm::coll
