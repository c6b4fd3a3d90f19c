// Error handlers: the predefined SCOMM_ERRORS_ARE_FATAL and SCOMM_ERRORS_RETURN, and the user's
// (SCOMM_Comm_create_errhandler). A user handler lives while someone has it: the user, through
// the handle it was created with or got back from SCOMM_Comm_get_errhandler (each freed with
// SCOMM_Errhandler_free), or a communicator or a pending creation that reports through it.
#pragma once

#include <utility>

#include "scomm.h"

namespace scomm::capi {

inline constexpr int kErrorsAreFatal = SCOMM_ERRORS_ARE_FATAL;
inline constexpr int kErrorsReturn = SCOMM_ERRORS_RETURN;
// The first index of a user's handler in its table: every user handler's handle is above both
// predefined ones (their kind's, at indices 1 and 2).
inline constexpr int kFirstUserHandler = 3;
static_assert(kErrorsAreFatal < kErrorsReturn);

struct UserErrhandler {
  SCOMM_Comm_errhandler_function* function;
  int user_references = 1;  // handles the user holds, the creator's first
  int holders = 0;          // communicators and pending creations that report through it
};

void hold_user_errhandler(int handle) noexcept;
void release_user_errhandler(int handle) noexcept;

// The error handler a communicator (or a creation still to make one) reports through: a
// predefined one, or a user's, which it keeps alive. Copies hold it too.
class ErrhandlerRef {
 public:
  explicit ErrhandlerRef(int handle = kErrorsAreFatal) noexcept : handle_(handle) { hold(); }
  ErrhandlerRef(const ErrhandlerRef& other) noexcept : ErrhandlerRef(other.handle_) {}
  ErrhandlerRef(ErrhandlerRef&& other) noexcept
      : handle_(std::exchange(other.handle_, kErrorsAreFatal)) {}
  ErrhandlerRef& operator=(ErrhandlerRef other) noexcept {
    std::swap(handle_, other.handle_);
    return *this;
  }
  ~ErrhandlerRef() {
    if (is_user()) release_user_errhandler(handle_);
  }

  int handle() const noexcept { return handle_; }
  bool is_user() const noexcept { return handle_ > kErrorsReturn; }

 private:
  void hold() const noexcept {
    if (is_user()) hold_user_errhandler(handle_);
  }

  int handle_;
};

// Error(kArg) unless `handle` is a predefined handler or a user's that the user still holds.
void check_errhandler(int handle);

// Calls user handler `handler` for `code` on communicator `comm`; returns `code`.
int call_user_errhandler(int handler, int comm, int code) noexcept;

}  // namespace scomm::capi
