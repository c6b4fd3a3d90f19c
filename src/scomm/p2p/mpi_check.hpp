// Turns a failed base MPI call into scomm::Error with the MPI library's own message. The base
// communicators return errors (MPI_ERRORS_RETURN) so that scomm can report them through the
// scomm communicator's error handler.
#pragma once

#include <mpi.h>

#include <string>

#include "scomm/base/error.hpp"

namespace scomm::p2p {

inline ErrorClass error_class_of_mpi(int code) noexcept {
  int mpi_class = MPI_ERR_OTHER;
  MPI_Error_class(code, &mpi_class);
  if (mpi_class == MPI_ERR_TRUNCATE) return ErrorClass::kTruncate;
  if (mpi_class == MPI_ERR_TYPE) return ErrorClass::kType;
  if (mpi_class == MPI_ERR_COUNT) return ErrorClass::kCount;
  if (mpi_class == MPI_ERR_BUFFER) return ErrorClass::kBuffer;
  return ErrorClass::kIntern;
}

inline void check_mpi(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw Error(error_class_of_mpi(code), std::string(call) + ": " + std::string(text, length));
}

// Held while scomm calls MPI on a communicator of the user's (whose handler may be fatal): for
// that time `comm` returns errors, so that scomm reports them through the scomm communicator's
// handler; the user's handler is put back after.
class ErrorsReturned {
 public:
  explicit ErrorsReturned(MPI_Comm comm) noexcept : comm_(comm) {
    MPI_Comm_get_errhandler(comm_, &saved_);
    MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  }
  ~ErrorsReturned() {
    hand_down(comm_);
    if (saved_ != MPI_ERRHANDLER_NULL) MPI_Errhandler_free(&saved_);
  }
  ErrorsReturned(const ErrorsReturned&) = delete;
  ErrorsReturned& operator=(const ErrorsReturned&) = delete;

  // Gives `made`, a communicator made from `comm` meanwhile, the user's handler, which it would
  // have inherited.
  void hand_down(MPI_Comm made) const noexcept {
    // Null: SMPI's answer for the default handler on ranks > 0.
    MPI_Comm_set_errhandler(made, saved_ == MPI_ERRHANDLER_NULL ? MPI_ERRORS_ARE_FATAL : saved_);
  }

 private:
  MPI_Comm comm_;
  MPI_Errhandler saved_ = MPI_ERRHANDLER_NULL;
};

// Held while scomm completes base MPI requests (MPI_Wait, MPI_Test, MPI_Waitall). MPICH 4.0 and
// SimGrid SMPI raise an error found at completion, a truncated receive for one, on
// MPI_COMM_WORLD's error handler (fatal by default) instead of on the request's communicator; for
// that time MPI_COMM_WORLD returns errors, so that scomm reports them through the scomm
// communicator's handler as in Open MPI.
class CompletionErrorsReturned {
#if defined(MPICH) || defined(SMPI_H)
 public:
  CompletionErrorsReturned() noexcept : world_(MPI_COMM_WORLD) {}

 private:
  ErrorsReturned world_;
#endif
};

// MPI_Testall into `statuses` (not MPI_STATUSES_IGNORE). SimGrid SMPI 3.32 returns MPI_SUCCESS
// when a request failed (a truncated receive) and tells it in the status alone, where MPI-3.1
// (3.7.5) returns MPI_ERR_IN_STATUS: there the error fields are cleared first and read after, so
// that callers see MPI's answer. SMPI also completes and frees requests when it returns flag 0,
// with their statuses: callers that test copies of handles keep those (EarlyCompletion).
inline int test_all(int count, MPI_Request* requests, int* flag, MPI_Status* statuses) {
#if defined(SMPI_H)
  for (int i = 0; i < count; ++i) statuses[i].MPI_ERROR = MPI_SUCCESS;
  const int rc = MPI_Testall(count, requests, flag, statuses);
  if (rc != MPI_SUCCESS || *flag == 0) return rc;
  for (int i = 0; i < count; ++i)
    if (statuses[i].MPI_ERROR != MPI_SUCCESS) return MPI_ERR_IN_STATUS;
  return rc;
#else
  return MPI_Testall(count, requests, flag, statuses);
#endif
}

// MPI_Wait as a callable: how the helpers below wait for one request by default.
inline int wait_one(MPI_Request& request, MPI_Status& status) {
  return MPI_Wait(&request, &status);
}

// After an MPI_Waitall (or MPI_Testall) that returned MPI_ERR_IN_STATUS: MPICH 4.0's stops at a
// failure and leaves the requests after it pending (MPI_ERR_PENDING in their statuses, as MPI-3.1
// 3.7.5 allows); each is waited for here with `wait` (an MPI_Wait), so that every request is
// complete, as Open MPI's are.
template <typename Wait = decltype(wait_one)>
void wait_pending(int count, MPI_Request* requests, MPI_Status* statuses, Wait&& wait = wait_one) {
  for (int i = 0; i < count; ++i)
    if (statuses[i].MPI_ERROR == MPI_ERR_PENDING)
      statuses[i].MPI_ERROR = wait(requests[i], statuses[i]);
}

// Waits for each request in turn with `wait` (an MPI_Wait) into `statuses` (or
// MPI_STATUSES_IGNORE); a failure told as MPI_Waitall's MPI_ERR_IN_STATUS.
template <typename Wait>
int wait_each(int count, MPI_Request* requests, MPI_Status* statuses, Wait&& wait) {
  bool failed = false;
  for (int i = 0; i < count; ++i) {
    MPI_Status own;
    MPI_Status& status = statuses == MPI_STATUSES_IGNORE ? own : statuses[i];
    status.MPI_ERROR = MPI_SUCCESS;
    const int rc = wait(requests[i], status);
    if (rc != MPI_SUCCESS && status.MPI_ERROR == MPI_SUCCESS) status.MPI_ERROR = rc;
    failed = failed || status.MPI_ERROR != MPI_SUCCESS;
  }
  return failed ? MPI_ERR_IN_STATUS : MPI_SUCCESS;
}

// MPI_Waitall into `statuses` (or MPI_STATUSES_IGNORE). SimGrid SMPI 3.32's MPI_Waitall waits in
// its waitany, whose simcall first tests each pending activity against the actor's previous
// simcall, which may be gone: in long programs it crashes at random there (random programs of
// 3000 steps at 3 simulated ranks show it). On SMPI each request is waited for in turn with
// MPI_Wait (its MPI_Waitall is such a loop anyway).
inline int wait_all(int count, MPI_Request* requests, MPI_Status* statuses) {
#if defined(SMPI_H)
  return wait_each(count, requests, statuses, wait_one);
#else
  const int rc = MPI_Waitall(count, requests, statuses);
  if (rc == MPI_ERR_IN_STATUS && statuses != MPI_STATUSES_IGNORE)
    wait_pending(count, requests, statuses);
  return rc;
#endif
}

}  // namespace scomm::p2p
