// What the recursive-halving reductions share for any number of ranks (allreduce Rabenseifner,
// reduce-scatter): folding p ranks down to a power of two, and the halving itself.
//
// The partner distance grows (1, 2, 4, ...), so a rank's partial result always covers an
// aligned, contiguous range of ranks and its partner's the adjacent one: reducing with
// reduce_left or reduce_right by the partner's side keeps rank order for non-commutative
// operations. The price: after the halving, rank v keeps block bit_reverse(v), not block v.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// The first 2 * rem ranks fold in pairs (rem = p - 2^floor(log2 p)): the even one hands its
// vector to the odd one, which stands for both among the pof2 ranks that halve.
struct Fold {
  explicit Fold(int size) : pof2(floor_pow2(size)), rem(size - pof2) {}

  bool hands_over(int rank) const noexcept { return rank < 2 * rem && rank % 2 == 0; }
  bool takes_over(int rank) const noexcept { return rank < 2 * rem && rank % 2 == 1; }
  // Rank among the pof2 that halve (only for ranks that do not hand over).
  int new_rank(int rank) const noexcept { return rank < 2 * rem ? rank / 2 : rank - rem; }
  int real_rank(int new_rank) const noexcept {
    return new_rank < rem ? 2 * new_rank + 1 : new_rank + rem;
  }
  // The lowest real rank that new rank `v` stands for (v = pof2: one past the last rank).
  int first_rank(int v) const noexcept { return v < rem ? 2 * v : v + rem; }

  int pof2;
  int rem;
};

// A range [first, last) of block positions.
struct BlockRange {
  int first = 0;
  int last = 0;
};

// Reverses the low log2(pof2) bits of `v`.
int bit_reverse(int v, int pof2) noexcept;

// Reduce-scatter by recursive halving among the fold's pof2 ranks, from new rank `v` (real rank
// `rank`): `vector` holds pof2 blocks, block q at offsets[q] .. offsets[q + 1]; `incoming` is a
// temporary with the same layout. With `from_input`, the rank's contribution is still in the
// input, not in `vector`: the first step sends from the input and receives the partner's half
// straight into `vector` (where the other steps receive into `incoming`). Returns the range the
// rank keeps before each step and after the last: ranges[0] = [0, pof2), ranges.back() = the single
// block bit_reverse(v).
std::vector<BlockRange> halve(Schedule& schedule, const Fold& fold, int v, Slot vector,
                              Slot incoming, std::span<const std::int64_t> offsets,
                              bool from_input = false);

// The block of `slot` that covers `range`.
inline Block block_of(Slot slot, std::span<const std::int64_t> offsets, BlockRange range) {
  const auto first = static_cast<std::size_t>(range.first);
  const auto last = static_cast<std::size_t>(range.last);
  return {slot, offsets[first], offsets[last] - offsets[first]};
}

}  // namespace scomm::coll
