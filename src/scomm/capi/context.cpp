// The library context and its one accessor.
#include "scomm/capi/context.hpp"

#include "scomm.h"

#include <cstdio>

namespace scomm::capi {

constinit Context the_context;

// scomm.h's predefined handles are those their tables reserve (SCOMM_COMM_WORLD the comms'
// first handle, made again by every SCOMM_Init).
template <typename T>
constexpr int predefined_handle(int kind, int index) {
  return HandleTable<T>::predefined(kind, index);
}
static_assert(SCOMM_COMM_WORLD ==
              predefined_handle<CommEntry>(kCommHandles, Context::kFirstCommHandle));
static_assert(SCOMM_GROUP_EMPTY == predefined_handle<group::Group>(kGroupHandles, 1));
static_assert(SCOMM_MESSAGE_NO_PROC == predefined_handle<MessageEntry>(kMessageHandles, 1));
static_assert(SCOMM_ERRORS_ARE_FATAL == predefined_handle<UserErrhandler>(kErrhandlerHandles, 1));
static_assert(SCOMM_ERRORS_RETURN == predefined_handle<UserErrhandler>(kErrhandlerHandles, 2));

Context& context_from_outside() noexcept {
  return the_context;
}

int report(ErrorClass error_class, const char* function, const char* what) noexcept {
  try {
    return context().errors.record(error_class, std::string(function) + ": " + what);
  } catch (...) {
    return static_cast<int>(error_class);
  }
}

void throw_dead_comm(int handle) {
  throw Error(ErrorClass::kComm, handle == SCOMM_COMM_NULL
                                     ? "SCOMM_COMM_NULL is not a communicator"
                                     : "communicator handle " + std::to_string(handle) +
                                           " is not live (freed, never created, or scomm "
                                           "not initialized)");
}

int raise(int handle, int code) noexcept {
  const CommEntry* entry = context().comms.find(handle);
  if (entry == nullptr) {
    handle = SCOMM_COMM_WORLD;
    entry = context().comms.find(handle);
    if (entry == nullptr && !context().runtime) return code;  // no communicator to abort
  }
  if (entry != nullptr && entry->errhandler.handle() == kErrorsReturn) return code;
  if (entry != nullptr && entry->errhandler.is_user())
    return call_user_errhandler(entry->errhandler.handle(), handle, code);
  std::fprintf(stderr, "scomm: fatal error: %s\n", context().errors.describe(code).c_str());
  MPI_Abort(MPI_COMM_WORLD, error_class_of(code));
  return code;
}

void throw_null_pointer(const char* what) {
  throw Error(ErrorClass::kArg, std::string("null pointer for ") + what);
}

void throw_not_initialized() {
  throw Error(ErrorClass::kArg, "SCOMM_Init has not been called");
}

}  // namespace scomm::capi
