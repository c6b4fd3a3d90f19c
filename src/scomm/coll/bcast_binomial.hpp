// Binomial-tree broadcast: the root's relative rank is 0; a rank receives from the rank that
// differs in its lowest set bit and forwards to the ranks below that bit. ceil(log2 p) steps on
// the critical path, p - 1 messages of the whole buffer: the choice for small messages.
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// Broadcasts `count` elements of the output buffer from shape.root.
Schedule bcast_binomial(const Shape& shape, std::int64_t count);

// The binomial tree of relative rank `relative` among `size`: its parent (-1 for the root) and
// the bit below which its children lie (children are relative + m for m = mask/2, mask/4, ...).
struct BinomialNode {
  int parent = -1;
  int mask = 0;
};
BinomialNode binomial_node(int relative, int size);

}  // namespace scomm::coll
