// What the completion calls share (capi/request.cpp, capi/request_some.cpp): finding a request's
// entry, completing one request, reporting a plain request MPI completed among many, and
// reporting the first failure through its request's communicator.
#pragma once

#include <exception>
#include <utility>
#include <vector>

#include "scomm.h"
#include "scomm/capi/context.hpp"
#include "scomm/p2p/mpi_check.hpp"

namespace scomm::capi {

// The status slot of request i in `statuses`, or SCOMM_STATUS_IGNORE for SCOMM_STATUSES_IGNORE.
inline SCOMM_Status* status_at(SCOMM_Status* statuses, int i) {
  return statuses == SCOMM_STATUSES_IGNORE ? SCOMM_STATUS_IGNORE : &statuses[i];
}

// Writes `from` to *to unless `to` is SCOMM_STATUS_IGNORE (capi/p2p.cpp).
void write_status(const p2p::Status& from, SCOMM_Status* to);

// MPI's rule: a call that returns one status (SCOMM_Recv, SCOMM_Wait, ...) leaves its error field
// as the caller left it, the call's code telling the error; those of many statuses set it. The
// calls of one status keep it with this around them, as they share their writing with the others.
class KeptErrorField {
 public:
  explicit KeptErrorField(SCOMM_Status* status) noexcept
      : status_(status), error_(status != SCOMM_STATUS_IGNORE ? status->SCOMM_ERROR : 0) {}
  ~KeptErrorField() {
    if (status_ != SCOMM_STATUS_IGNORE) status_->SCOMM_ERROR = error_;
  }
  KeptErrorField(const KeptErrorField&) = delete;
  KeptErrorField& operator=(const KeptErrorField&) = delete;

 private:
  SCOMM_Status* status_;
  int error_;
};
// The status of a request that failed with `failure`, the error class in SCOMM_ERROR: a
// truncated receive's tells the message's source, tag and size (p2p::failed_status).
void write_failure(const std::exception_ptr& failure, SCOMM_Status* to);
// body(); a failure it throws is written to *status (write_failure) on its way out.
template <typename Body>
decltype(auto) failure_to_status(SCOMM_Status* status, Body&& body) {
  try {
    return body();
  } catch (...) {
    write_failure(std::current_exception(), status);
    throw;
  }
}

// Error(kCount) for a negative count, Error(kArg) for a null array of a positive count.
void check_array(int count, const SCOMM_Request* requests);
// Error(kRequest) when a handle of the array other than SCOMM_REQUEST_NULL is not live, or is given
// twice (completing it once would leave the other copy dangling): checked before a call changes
// anything, in one pass (each entry keeps the number of the last look-up that saw it). Returns
// the index of the first active request, `count` when none is.
int check_live(int count, const SCOMM_Request requests[]);
// The plain request behind `handle`, marked as seen by array look-up `lookup` (check_live's
// marks); nullptr, marking nothing, when `handle` is no live plain request or this look-up has
// seen it already. The fast paths over arrays of plain requests check each handle with it once.
inline PlainRequestEntry* mark_plain(SCOMM_Request handle, std::uint64_t lookup) noexcept {
  PlainRequestEntry* plain = context().plain_requests.find(handle);
  if (plain == nullptr || plain->listed_in == lookup) return nullptr;
  plain->listed_in = lookup;
  return plain;
}
// For one completion call, the persistent requests of an array give way to the requests their
// SCOMM_Start started, or to SCOMM_REQUEST_NULL while inactive, which is how MPI's completion
// calls treat an inactive persistent request. Put back when the call ends, each one whose
// started request completed (its handle now SCOMM_REQUEST_NULL) inactive again. Handles that are
// not live are left for check_live() to report.
class StartedRequests {
 public:
  StartedRequests(int count, SCOMM_Request requests[]);
  ~StartedRequests();
  StartedRequests(const StartedRequests&) = delete;
  StartedRequests& operator=(const StartedRequests&) = delete;

 private:
  SCOMM_Request* requests_;
  std::vector<std::pair<int, SCOMM_Request>> swapped_;  // index in the array, persistent handle
};

// Tests request *handle (live, not SCOMM_REQUEST_NULL); once it has completed, reports it in
// *status, frees it, sets *handle to SCOMM_REQUEST_NULL and returns true. A failed request is
// freed too and its failure thrown. `failing` becomes the request's communicator.
bool complete_if_done(SCOMM_Request* handle, SCOMM_Status* status, SCOMM_Comm& failing);

// Reports and frees plain request *handle, which an MPI_Waitall, MPI_Testall, MPI_Waitsome or
// MPI_Testsome that returned `rc` has completed with status `mpi`. A failed one's status is its
// error class; the first failure is left in `error` and `failing` (its communicator).
[[gnu::always_inline]] inline void finish_plain(SCOMM_Request* handle, const MPI_Status& mpi,
                                                int rc, SCOMM_Status* status, int& error,
                                                SCOMM_Comm& failing) noexcept {
  HandleTable<PlainRequestEntry>& table = context().plain_requests;
  const PlainRequestEntry& plain = table.get_live(*handle);
  const MPI_Status& base = plain.request.base_status(mpi);
  if ((rc == MPI_ERR_IN_STATUS || plain.request.kept_early()) && base.MPI_ERROR != MPI_SUCCESS)
      [[unlikely]] {
    if (status != SCOMM_STATUS_IGNORE) write_status(plain.request.failed(base), status);
    if (error == MPI_SUCCESS) {
      error = base.MPI_ERROR;
      failing = plain.comm;
    }
  } else if (status != SCOMM_STATUS_IGNORE) {
    write_status(plain.request.finish(mpi), status);
  }
  table.erase_live(*handle);
  *handle = SCOMM_REQUEST_NULL;
}

// The first failure among the requests of a SCOMM_Waitall, SCOMM_Testall or SCOMM_Waitsome, in
// the order of the array: thrown once every request is reported, through its request's
// communicator.
class FirstFailure {
 public:
  void note(const std::exception_ptr& failure, SCOMM_Comm comm) {
    if (failure_ || !failure) return;
    failure_ = failure;
    comm_ = comm;
  }
  // A base MPI call's failure `error`, as check_mpi() throws it.
  void note_mpi(int error, const char* call, SCOMM_Comm comm) {
    if (failure_ || error == MPI_SUCCESS) return;
    try {
      p2p::check_mpi(error, call);
    } catch (...) {
      note(std::current_exception(), comm);
    }
  }
  void rethrow(SCOMM_Comm& failing) const {
    if (!failure_) return;
    failing = comm_;
    std::rethrow_exception(failure_);
  }

 private:
  std::exception_ptr failure_;
  SCOMM_Comm comm_ = SCOMM_COMM_WORLD;
};

// guarded() whose failure goes through the error handler of communicator `failing`, which the
// body sets to that of the request it works on (SCOMM_COMM_WORLD's before any).
template <typename Body>
int on_requests(const char* function, Body&& body) noexcept {
  SCOMM_Comm failing = SCOMM_COMM_WORLD;
  const int code = guarded(function, [&] { body(failing); });
  return code == 0 ? 0 : raise(failing, code);
}

}  // namespace scomm::capi
