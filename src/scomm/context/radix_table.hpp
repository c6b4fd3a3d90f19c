// 4-level radix array of 256-entry chunks, indexed by the four bytes of an id's key: four dependent
// loads per lookup, memory in 2 KiB chunks only where ids are live, any id of 32 bits. The key is
// the id rotated right by block_bits: its block's number below, its place in the block in the top
// bits. Local creation takes the first ids of consecutive blocks one after another; indexed by
// id they would lie a block apart, a fresh cache line for every creation (16 pointers of 8 bytes)
// and a leaf for every 16, where by key they share lines eight to one and a leaf 256 to one. A
// block's other ids, which its communicator's own local children derive, go to leaves of their
// own, under chunks of their own per place (at most 2^block_bits - 1 of them). The leaf inserted
// into last is kept at hand, and chunks live as long as the table.
#pragma once

#include <array>
#include <bit>
#include <memory>

#include "scomm/context/context_table.hpp"
#include "scomm/context/table_errors.hpp"

namespace scomm::context {

template <typename T>
class RadixTable final : public ContextTable<T> {
 public:
  // Blocks of 2^block_bits ids (0 <= block_bits <= 6, as HeldIds).
  explicit RadixTable(int block_bits) noexcept : block_bits_(block_bits) {}

  T* find(ContextId id) const noexcept override {
    const ContextId k = key(id);
    if (k >> 8 == last_prefix_) return (*last_leaf_)[byte(k, 0)];
    const Level2* l2 = root_[byte(k, 3)].get();
    if (l2 == nullptr) return nullptr;
    const Level1* l1 = (*l2)[byte(k, 2)].get();
    if (l1 == nullptr) return nullptr;
    const Leaf* leaf = (*l1)[byte(k, 1)].get();
    return leaf == nullptr ? nullptr : (*leaf)[byte(k, 0)];
  }
  void insert(ContextId id, T* value) override {
    const ContextId k = key(id);
    T*& slot = leaf_for(k)[byte(k, 0)];
    if (slot != nullptr) context_taken(id);
    slot = value;
  }
  void erase(ContextId id) noexcept override {
    const ContextId k = key(id);
    if (k >> 8 == last_prefix_) {
      (*last_leaf_)[byte(k, 0)] = nullptr;
      return;
    }
    Level2* l2 = root_[byte(k, 3)].get();
    Level1* l1 = l2 == nullptr ? nullptr : (*l2)[byte(k, 2)].get();
    Leaf* leaf = l1 == nullptr ? nullptr : (*l1)[byte(k, 1)].get();
    if (leaf != nullptr) (*leaf)[byte(k, 0)] = nullptr;
  }
  // The leaves of the blocks' first ids, one per 256 blocks: the other ids of a block are derived
  // by its own communicator's children, which make room for theirs as they come.
  void prepare(ContextId first, ContextId count) override {
    const ContextId ids_per_leaf = ContextId{256} << block_bits_;
    for (ContextId id = first; id < first + count; id = (id | (ids_per_leaf - 1)) + 1)
      leaf_for(key(id));
  }
  std::size_t bytes() const noexcept override { return sizeof(*this) + chunks_ * sizeof(Leaf); }

 private:
  using Leaf = std::array<T*, 256>;
  using Level1 = std::array<std::unique_ptr<Leaf>, 256>;
  using Level2 = std::array<std::unique_ptr<Level1>, 256>;

  static std::size_t byte(ContextId key, int k) noexcept { return (key >> (8 * k)) & 0xff; }
  ContextId key(ContextId id) const noexcept { return std::rotr(id, block_bits_); }

  template <typename Chunk>
  Chunk& chunk(std::unique_ptr<Chunk>& slot) {
    if (!slot) {
      slot = std::make_unique<Chunk>();
      ++chunks_;
    }
    return *slot;
  }
  Leaf& leaf_for(ContextId key) {
    if (key >> 8 == last_prefix_) [[likely]]
      return *last_leaf_;
    return walk_to_leaf(key);
  }
  // Out of line: inlined, its chunk allocations cost every insert a stack frame.
  [[gnu::noinline]] Leaf& walk_to_leaf(ContextId key) {
    Level2& l2 = chunk(root_[byte(key, 3)]);
    Level1& l1 = chunk(l2[byte(key, 2)]);
    last_leaf_ = &chunk(l1[byte(key, 1)]);
    last_prefix_ = key >> 8;
    return *last_leaf_;
  }

  int block_bits_;
  std::array<std::unique_ptr<Level2>, 256> root_{};
  std::size_t chunks_ = 0;
  ContextId last_prefix_ = kNoContext;  // key >> 8 of the leaf at hand; never a key's (24 bits)
  Leaf* last_leaf_ = nullptr;
};

}  // namespace scomm::context
