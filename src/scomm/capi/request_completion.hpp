// What the completion calls share (capi/request.cpp, capi/request_some.cpp): finding a request's
// entry, completing one request, and reporting a request's failure through its communicator.
#pragma once

#include "scomm.h"
#include "scomm/capi/context.hpp"

namespace scomm::capi {

// The status slot of request i in `statuses`, or SCOMM_STATUS_IGNORE for SCOMM_STATUSES_IGNORE.
inline SCOMM_Status* status_at(SCOMM_Status* statuses, int i) {
  return statuses == SCOMM_STATUSES_IGNORE ? SCOMM_STATUS_IGNORE : &statuses[i];
}

// Writes `from` to *to unless `to` is SCOMM_STATUS_IGNORE (capi/p2p.cpp).
void write_status(const p2p::Status& from, SCOMM_Status* to);
// The status of a request that failed with `error_class`: nothing received, the class in
// SCOMM_ERROR.
void write_failure(ErrorClass error_class, SCOMM_Status* to);

// Error(kCount) for a negative count, Error(kArg) for a null array of a positive count.
void check_array(int count, const SCOMM_Request* requests);
// Error(kRequest) when a handle of the array other than SCOMM_REQUEST_NULL is not live, or is given
// twice (completing it once would leave the other copy dangling): checked before a call changes
// anything, in one pass (each entry keeps the number of the last look-up that saw it).
void check_live(int count, const SCOMM_Request requests[]);
// Tests request *handle (live, not SCOMM_REQUEST_NULL); once it has completed, reports it in
// *status, frees it, sets *handle to SCOMM_REQUEST_NULL and returns true. A failed request is
// freed too and its failure thrown. `failing` becomes the request's communicator.
bool complete_if_done(SCOMM_Request* handle, SCOMM_Status* status, SCOMM_Comm& failing);

// guarded() whose failure goes through the error handler of communicator `failing`, which the
// body sets to that of the request it works on (SCOMM_COMM_WORLD's before any).
template <typename Body>
int on_requests(const char* function, Body&& body) noexcept {
  SCOMM_Comm failing = SCOMM_COMM_WORLD;
  const int code = guarded(function, [&] { body(failing); });
  return code == 0 ? 0 : raise(failing, code);
}

}  // namespace scomm::capi
