// Storage of context -> communicator, looked up for every arriving message (Bosilca et al.'s
// four strategies): a growable array, a fixed array, a balanced tree, and a 4-level radix array
// of 256-entry chunks. Each lives in its own header; make_context_table (context_table_factory.hpp)
// picks one at run time.
#pragma once

#include <cstddef>
#include <string_view>

#include "scomm/context/context_id.hpp"

namespace scomm::context {

enum class Storage { kGrowableArray, kFixedArray, kTree, kRadix };

Storage storage_from_name(std::string_view name);  // "array", "fixed", "tree", "radix"
std::string_view storage_name(Storage storage);

template <typename T>
class ContextTable {
 public:
  virtual ~ContextTable() = default;
  // The entry of `id`, or nullptr.
  virtual T* find(ContextId id) const noexcept = 0;
  // Throws Error(kContext) when `id` is taken or beyond what the strategy can hold.
  virtual void insert(ContextId id, T* value) = 0;
  virtual void erase(ContextId id) noexcept = 0;
  // Makes room ahead of their inserts for the whole blocks of ids [first, first + count) that a run
  // reserved for local creation hands out, at least for each block's first id (the one its
  // communicator takes), so that the run allocates once, in its collective call, and not in each
  // creation.
  virtual void prepare(ContextId /*first*/, ContextId /*count*/) {}
  virtual std::size_t bytes() const noexcept = 0;
};

}  // namespace scomm::context
