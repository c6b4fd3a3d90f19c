// Growable array: index by id, grown (doubling) to the highest id inserted. One load per lookup;
// memory follows the highest id, not the number of live communicators.
#pragma once

#include <vector>

#include "scomm/context/context_table.hpp"
#include "scomm/context/table_errors.hpp"

namespace scomm::context {

template <typename T>
class GrowableArrayTable final : public ContextTable<T> {
 public:
  T* find(ContextId id) const noexcept override {
    return id < entries_.size() ? entries_[id] : nullptr;
  }
  void insert(ContextId id, T* value) override {
    cover(id);
    if (entries_[id] != nullptr) context_taken(id);
    entries_[id] = value;
  }
  void prepare(ContextId first, ContextId count) override {
    if (count > 0) cover(first + count - 1);
  }
  void erase(ContextId id) noexcept override {
    if (id < entries_.size()) entries_[id] = nullptr;
  }
  std::size_t bytes() const noexcept override {
    return sizeof(*this) + entries_.capacity() * sizeof(T*);
  }

 private:
  void cover(ContextId id) {  // doubling: amortized O(1) per id in increasing order
    if (id >= entries_.size()) entries_.resize(std::max<std::size_t>(id + 1, 2 * entries_.size()));
  }

  std::vector<T*> entries_;
};

}  // namespace scomm::context
