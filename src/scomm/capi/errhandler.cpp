// SCOMM_Comm_create_errhandler, SCOMM_Errhandler_free, SCOMM_Comm_call_errhandler, and the
// references that keep a user's handler alive.
#include "scomm/capi/errhandler.hpp"

#include <string>

#include "scomm/capi/context.hpp"

namespace scomm::capi {
namespace {

// Frees a user's handler once neither the user nor a communicator has it.
void erase_if_unused(int handle, const UserErrhandler& entry) noexcept {
  if (entry.user_references == 0 && entry.holders == 0) context().errhandlers.erase_live(handle);
}

}  // namespace

void hold_user_errhandler(int handle) noexcept {
  ++context().errhandlers.get_live(handle).holders;
}

void release_user_errhandler(int handle) noexcept {
  UserErrhandler& entry = context().errhandlers.get_live(handle);
  --entry.holders;
  erase_if_unused(handle, entry);
}

void check_errhandler(int handle) {
  if (handle == kErrorsAreFatal || handle == kErrorsReturn) return;
  const UserErrhandler* entry = context().errhandlers.find(handle);
  if (entry == nullptr || entry->user_references == 0)
    throw Error(ErrorClass::kArg, "error handler " + std::to_string(handle) +
                                      " is not live (freed, or never created)");
}

int call_user_errhandler(int handler, int comm, int code) noexcept {
  // Copied first: the handler may free the communicator, and with it its hold on the handler.
  SCOMM_Comm_errhandler_function* const function = context().errhandlers.get_live(handler).function;
  int reported = code;
  function(&comm, &reported);
  return code;
}

}  // namespace scomm::capi

using namespace scomm::capi;
using scomm::Error;
using scomm::ErrorClass;

extern "C" {

int SCOMM_Comm_create_errhandler(SCOMM_Comm_errhandler_function* function,
                                 SCOMM_Errhandler* errhandler) {
  return guarded("SCOMM_Comm_create_errhandler", [&] {
    require(function, "function");
    require(errhandler, "errhandler");
    *errhandler = context().errhandlers.emplace(UserErrhandler{function});
  });
}

int SCOMM_Errhandler_free(SCOMM_Errhandler* errhandler) {
  return guarded("SCOMM_Errhandler_free", [&] {
    require(errhandler, "errhandler");
    check_errhandler(*errhandler);
    if (*errhandler > kErrorsReturn) {  // a user's
      UserErrhandler& entry = context().errhandlers.get_live(*errhandler);
      --entry.user_references;
      erase_if_unused(*errhandler, entry);
    }
    *errhandler = SCOMM_ERRHANDLER_NULL;
  });
}

int SCOMM_Comm_call_errhandler(SCOMM_Comm comm, int errorcode) {
  const int code = guarded("SCOMM_Comm_call_errhandler", [&] { comm_entry(comm); });
  if (code != SCOMM_SUCCESS) return raise(comm, code);
  raise(comm, errorcode);
  return SCOMM_SUCCESS;
}

}  // extern "C"
