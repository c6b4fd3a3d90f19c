// Balanced tree (std::map, a red-black tree): memory follows the live communicators, lookups
// cost O(log live).
#pragma once

#include <map>

#include "scomm/context/context_table.hpp"
#include "scomm/context/table_errors.hpp"

namespace scomm::context {

template <typename T>
class TreeTable final : public ContextTable<T> {
 public:
  T* find(ContextId id) const noexcept override {
    const auto it = entries_.find(id);
    return it == entries_.end() ? nullptr : it->second;
  }
  void insert(ContextId id, T* value) override {
    if (!entries_.emplace(id, value).second) context_taken(id);
  }
  void erase(ContextId id) noexcept override { entries_.erase(id); }
  // A red-black node holds the pair, three links and a colour (libstdc++: 48 bytes).
  std::size_t bytes() const noexcept override { return sizeof(*this) + entries_.size() * 48; }

 private:
  std::map<ContextId, T*> entries_;
};

}  // namespace scomm::context
