// Fixed array: every possible id preallocated at start-up; one load per lookup, constant memory
// of capacity pointers whatever is live.
#pragma once

#include <memory>

#include "scomm/context/context_table.hpp"
#include "scomm/context/table_errors.hpp"

namespace scomm::context {

template <typename T>
class FixedArrayTable final : public ContextTable<T> {
 public:
  explicit FixedArrayTable(ContextId capacity)
      : capacity_(capacity), entries_(std::make_unique<T*[]>(capacity)) {}
  T* find(ContextId id) const noexcept override { return id < capacity_ ? entries_[id] : nullptr; }
  void insert(ContextId id, T* value) override {
    if (id >= capacity_) context_beyond(id, capacity_);
    if (entries_[id] != nullptr) context_taken(id);
    entries_[id] = value;
  }
  void erase(ContextId id) noexcept override {
    if (id < capacity_) entries_[id] = nullptr;
  }
  std::size_t bytes() const noexcept override {
    return sizeof(*this) + std::size_t{capacity_} * sizeof(T*);
  }

 private:
  ContextId capacity_;
  std::unique_ptr<T*[]> entries_;
};

}  // namespace scomm::context
