// Errors shared by the context tables.
#pragma once

#include <string>

#include "scomm/base/error.hpp"
#include "scomm/context/context_id.hpp"

namespace scomm::context {

// Cold and out of line: the message would otherwise cost every insert a stack frame.
[[noreturn, gnu::cold, gnu::noinline]] inline void context_taken(ContextId id) {
  throw Error(ErrorClass::kContext, "context " + std::to_string(id) + " is already in use here");
}

[[noreturn, gnu::cold, gnu::noinline]] inline void context_beyond(ContextId id, std::size_t limit) {
  throw Error(ErrorClass::kContext, "context " + std::to_string(id) + " is beyond this table's " +
                                        std::to_string(limit) + " entries");
}

}  // namespace scomm::context
