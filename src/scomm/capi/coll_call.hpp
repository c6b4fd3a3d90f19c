// The C API's collectives share one shape: checks and the call run on the communicator (its
// error handler reports failures); a nonblocking call returns a request handle.
#pragma once

#include "scomm.h"
#include "scomm/capi/context.hpp"
#include "scomm/coll/operations.hpp"

namespace scomm::capi {

SCOMM_Request new_request_handle(p2p::Request&& request, SCOMM_Comm comm);

// `start(call)` returns the collective's request: complete for blocking calls, a new handle in
// *request for nonblocking ones (request == nullptr: blocking).
template <typename Start>
int collective(const char* function, SCOMM_Comm c, SCOMM_Request* request, bool nonblocking,
               Start&& start) noexcept {
  return on_comm(function, c, [&](CommEntry& e) {
    if (nonblocking) require(request, "request");
    const coll::Call call{runtime(), e.comm, context().coll_selection, !nonblocking,
                          &e.schedules()};
    p2p::Request done = start(call);
    if (nonblocking) *request = new_request_handle(std::move(done), c);
  });
}

}  // namespace scomm::capi
