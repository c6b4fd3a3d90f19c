// The C API's collectives share one shape: checks and the call run on the communicator (its
// error handler reports failures); a nonblocking call returns a request handle.
#pragma once

#include <type_traits>
#include <utility>

#include "scomm.h"
#include "scomm/capi/context.hpp"
#include "scomm/coll/agreement.hpp"
#include "scomm/coll/operations.hpp"
#include "scomm/topo/multilevel_default.hpp"
#include "scomm/topo/operations.hpp"

namespace scomm::capi {

SCOMM_Request new_request_handle(p2p::Request&& request, SCOMM_Comm comm);

// The communicator's levels when the call runs the topology layer's algorithm, else null: when
// SCOMM_COLL_<operation>=multilevel asks for it, or with no algorithm forced where the user named
// levels (topo/multilevel_default.hpp).
inline const topo::Network* multilevel_network(const coll::Call& call, CommEntry& e,
                                               coll::Operation operation) {
  const auto forced = call.selection.forced(operation);
  if (forced ? *forced != coll::Algorithm::kMultilevel : !context().multilevel_by_default)
    return nullptr;
  const topo::Network& network =
      e.topology(context().world_levels, context().world_costs).network();
  if (!forced && !topo::multilevel_by_default(operation, network.levels())) return nullptr;
  return &network;
}

// The topology layer's schedule where multilevel_network says so, else coll's.
template <coll::Operation kOperation, auto multilevel, auto flat, typename... Args>
p2p::Request flat_or_multilevel(const coll::Call& call, CommEntry& e, const Args&... args) {
  if (const topo::Network* network = multilevel_network(call, e, kOperation))
    return multilevel(call, *network, args...);
  return flat(call, args...);
}

// `start(call)` or `start(call, entry)` returns the collective's request: complete for a
// blocking call, else given a new handle in *request. In check mode a blocking call's members
// first agree on `signature` (coll/agreement.hpp).
template <typename Start>
int run_collective(const char* function, SCOMM_Comm c, bool nonblocking, SCOMM_Request* request,
                   const coll::Signature& signature, Start&& start) noexcept {
  return on_comm(function, c, [&](CommEntry& e) {
    if (nonblocking) require(request, "request");
    const coll::Call call{runtime(),    e.comm,         context().coll_selection,
                          !nonblocking, &e.schedules(), context().coll_check};
    coll::agree(call, signature);
    p2p::Request done = [&] {
      if constexpr (std::is_invocable_v<Start, const coll::Call&, CommEntry&>)
        return start(call, e);
      else
        return start(call);
    }();
    if (nonblocking) *request = new_request_handle(std::move(done), c);
  });
}

// A blocking collective.
template <typename Start>
int collective(const char* function, SCOMM_Comm c, const coll::Signature& signature,
               Start&& start) noexcept {
  return run_collective(function, c, false, nullptr, signature, std::forward<Start>(start));
}

// A nonblocking collective (not checked: starting one must not wait for the other members).
template <typename Start>
int collective(const char* function, SCOMM_Comm c, SCOMM_Request* request, Start&& start) noexcept {
  return run_collective(function, c, true, request, coll::Signature{}, std::forward<Start>(start));
}

}  // namespace scomm::capi
