// 4-level radix array of 256-entry chunks, indexed by the four bytes of the id: four dependent
// loads per lookup, memory in 2 KiB chunks only where ids are live, any id of 32 bits. The leaf
// inserted into last is kept at hand: local creation inserts and erases ids a block apart, 16
// of them to a leaf, and chunks live as long as the table.
#pragma once

#include <array>
#include <memory>

#include "scomm/context/context_table.hpp"
#include "scomm/context/table_errors.hpp"

namespace scomm::context {

template <typename T>
class RadixTable final : public ContextTable<T> {
 public:
  T* find(ContextId id) const noexcept override {
    if (id >> 8 == last_prefix_) return (*last_leaf_)[byte(id, 0)];
    const Level2* l2 = root_[byte(id, 3)].get();
    if (l2 == nullptr) return nullptr;
    const Level1* l1 = (*l2)[byte(id, 2)].get();
    if (l1 == nullptr) return nullptr;
    const Leaf* leaf = (*l1)[byte(id, 1)].get();
    return leaf == nullptr ? nullptr : (*leaf)[byte(id, 0)];
  }
  void insert(ContextId id, T* value) override {
    T*& slot = leaf_for(id)[byte(id, 0)];
    if (slot != nullptr) context_taken(id);
    slot = value;
  }
  void erase(ContextId id) noexcept override {
    if (id >> 8 == last_prefix_) {
      (*last_leaf_)[byte(id, 0)] = nullptr;
      return;
    }
    Level2* l2 = root_[byte(id, 3)].get();
    Level1* l1 = l2 == nullptr ? nullptr : (*l2)[byte(id, 2)].get();
    Leaf* leaf = l1 == nullptr ? nullptr : (*l1)[byte(id, 1)].get();
    if (leaf != nullptr) (*leaf)[byte(id, 0)] = nullptr;
  }
  void prepare(ContextId first, ContextId count) override {
    for (ContextId id = first; id < first + count; id = (id | 0xff) + 1) leaf_for(id);
  }
  std::size_t bytes() const noexcept override { return sizeof(*this) + chunks_ * sizeof(Leaf); }

 private:
  using Leaf = std::array<T*, 256>;
  using Level1 = std::array<std::unique_ptr<Leaf>, 256>;
  using Level2 = std::array<std::unique_ptr<Level1>, 256>;

  static std::size_t byte(ContextId id, int k) noexcept { return (id >> (8 * k)) & 0xff; }

  template <typename Chunk>
  Chunk& chunk(std::unique_ptr<Chunk>& slot) {
    if (!slot) {
      slot = std::make_unique<Chunk>();
      ++chunks_;
    }
    return *slot;
  }
  Leaf& leaf_for(ContextId id) {
    if (id >> 8 == last_prefix_) [[likely]]
      return *last_leaf_;
    return walk_to_leaf(id);
  }
  // Out of line: inlined, its chunk allocations cost every insert a stack frame.
  [[gnu::noinline]] Leaf& walk_to_leaf(ContextId id) {
    Level2& l2 = chunk(root_[byte(id, 3)]);
    Level1& l1 = chunk(l2[byte(id, 2)]);
    last_leaf_ = &chunk(l1[byte(id, 1)]);
    last_prefix_ = id >> 8;
    return *last_leaf_;
  }

  std::array<std::unique_ptr<Level2>, 256> root_{};
  std::size_t chunks_ = 0;
  ContextId last_prefix_ = kNoContext;  // id >> 8 of the leaf at hand; never an id's (24 bits)
  Leaf* last_leaf_ = nullptr;
};

}  // namespace scomm::context
