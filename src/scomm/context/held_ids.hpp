// The context ids live communicators use at this process, at id granularity, grouped in blocks of
// 2^block_bits that collective allocation hands out (see derivation.hpp). A block stays taken in
// the allocation pool while any of its ids is held here, so a collective allocation can never
// hand out a block that a locally derived communicator still uses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "scomm/context/context_id.hpp"

namespace scomm::context {

class HeldIds {
 public:
  HeldIds(ContextId capacity, int block_bits);

  int block_bits() const noexcept { return block_bits_; }
  ContextId block_of(ContextId id) const noexcept { return id >> block_bits_; }
  ContextId first_of_block(ContextId block) const noexcept { return block << block_bits_; }

  // True when some id of [first, first + count) is held (what hold_unless_any_held refuses); the
  // range lies inside one block.
  bool any_held(ContextId first, ContextId count) const noexcept {
    const std::size_t word = first / 64;
    return word < bits_.size() && (bits_[word] & range_mask(first, count)) != 0;
  }
  // Inline, as every communicator creation and free goes through these two.
  // Holds `first` where no id of [first, first + count) is held (the range lies inside one block,
  // first < capacity); false, holding nothing, where one is. One look at one word for both.
  bool hold_unless_any_held(ContextId first, ContextId count) {
    const std::size_t index = first / 64;
    if (index >= bits_.size()) grow_to(index);
    std::uint64_t& word = bits_[index];
    if ((word & range_mask(first, count)) != 0) return false;
    word |= range_mask(first, 1);
    ++held_;
    return true;
  }
  // Releases `id`; true when its block now holds no id here (the pool may release the block).
  bool release(ContextId id) noexcept {
    std::uint64_t& word = bits_[id / 64];  // a block never straddles two words (block_bits <= 6)
    word &= ~range_mask(id, 1);
    --held_;
    return (word & block_mask(id)) == 0;
  }
  // Whether some id of `block` is held (what release() answers for the block of the id it frees).
  bool holds_in_block(ContextId block) const noexcept {
    const ContextId first = first_of_block(block);
    return first / 64 < bits_.size() && (bits_[first / 64] & block_mask(first)) != 0;
  }
  std::size_t held() const noexcept { return held_; }
  // Makes room for the ids of the blocks [first, first + count) ahead of holding them, and
  // returns those ids as {first id, count}, for ContextTable::prepare. count > 0.
  std::pair<ContextId, ContextId> prepare_blocks(ContextId first, ContextId count) {
    const ContextId first_id = first_of_block(first), end_id = first_of_block(first + count);
    if ((end_id - 1) / 64 >= bits_.size()) grow_to((end_id - 1) / 64);
    return {first_id, end_id - first_id};
  }
  // Memory of this object, its bit array included.
  std::size_t bytes() const noexcept {
    return sizeof(*this) + bits_.capacity() * sizeof(std::uint64_t);
  }

 private:
  // Bits [first % 64, first % 64 + count) of one word; count <= 64.
  static std::uint64_t range_mask(ContextId first, ContextId count) noexcept {
    const std::uint64_t ones = count >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << count) - 1;
    return ones << (first % 64);
  }
  // The bits of `id`'s block in its word.
  std::uint64_t block_mask(ContextId id) const noexcept {
    return block_ones_ << (id % 64 & block_offset_mask_);
  }

  // The array covers the highest id held so far, not the capacity: most processes use a few
  // thousand ids of the 2^20 (a dense array would cost every rank 128 KiB).
  void grow_to(std::size_t word);

  int block_bits_;
  std::uint64_t block_ones_;     // a block's ids at bit 0: 2^block_bits ones
  ContextId block_offset_mask_;  // id % 64 & this: where the id's block starts in its word
  std::size_t capacity_words_;
  std::vector<std::uint64_t> bits_;
  std::size_t held_ = 0;
};

}  // namespace scomm::context
