#include "scomm/context/held_ids.hpp"

#include <algorithm>

#include "scomm/base/error.hpp"

namespace scomm::context {

HeldIds::HeldIds(ContextId capacity, int block_bits)
    : block_bits_(block_bits), capacity_words_((std::size_t{capacity} + 63) / 64) {
  if (block_bits < 0 || block_bits > 6)
    throw Error(ErrorClass::kArg,
                "derivation bits must be 0..6, got " + std::to_string(block_bits));
  const ContextId block_size = ContextId{1} << block_bits;
  block_ones_ = range_mask(0, block_size);
  block_offset_mask_ = 63 & ~(block_size - 1);
}

void HeldIds::grow_to(std::size_t word) {
  // Doubling: holding ids in increasing order costs amortized O(1) each.
  bits_.resize(std::min(std::max(word + 1, 2 * bits_.size()), capacity_words_), 0);
}

}  // namespace scomm::context
