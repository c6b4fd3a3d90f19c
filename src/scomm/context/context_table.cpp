#include "scomm/context/context_table.hpp"

#include <string>

#include "scomm/base/error.hpp"

namespace scomm::context {

Storage storage_from_name(std::string_view name) {
  if (name == "array") return Storage::kGrowableArray;
  if (name == "fixed") return Storage::kFixedArray;
  if (name == "tree") return Storage::kTree;
  if (name == "radix") return Storage::kRadix;
  throw Error(ErrorClass::kArg,
              "unknown context storage '" + std::string(name) + "' (array, fixed, tree or radix)");
}

std::string_view storage_name(Storage storage) {
  switch (storage) {
    case Storage::kGrowableArray:
      return "array";
    case Storage::kFixedArray:
      return "fixed";
    case Storage::kTree:
      return "tree";
    case Storage::kRadix:
      return "radix";
  }
  return "?";
}

}  // namespace scomm::context
