// Picks a context table strategy at run time.
#pragma once

#include <memory>

#include "scomm/context/fixed_array_table.hpp"
#include "scomm/context/growable_array_table.hpp"
#include "scomm/context/radix_table.hpp"
#include "scomm/context/tree_table.hpp"

namespace scomm::context {

// Ids come in blocks of 2^block_bits (HeldIds), which the radix table files block by block.
template <typename T>
std::unique_ptr<ContextTable<T>> make_context_table(Storage storage, ContextId capacity,
                                                    int block_bits) {
  switch (storage) {
    case Storage::kGrowableArray:
      return std::make_unique<GrowableArrayTable<T>>();
    case Storage::kFixedArray:
      return std::make_unique<FixedArrayTable<T>>(capacity);
    case Storage::kTree:
      return std::make_unique<TreeTable<T>>();
    case Storage::kRadix:
      return std::make_unique<RadixTable<T>>(block_bits);
  }
  return nullptr;
}

}  // namespace scomm::context
