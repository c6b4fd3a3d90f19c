// The C API's collectives share one shape: checks and the call run on the communicator (its
// error handler reports failures); a nonblocking call returns a request handle.
#pragma once

#include <initializer_list>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "scomm.h"
#include "scomm/capi/context.hpp"
#include "scomm/capi/kept_types.hpp"
#include "scomm/coll/agreement.hpp"
#include "scomm/coll/operations.hpp"
#include "scomm/coll/replay.hpp"
#include "scomm/topo/multilevel_default.hpp"
#include "scomm/topo/operations.hpp"

namespace scomm::capi {

// The handle of a nonblocking collective's request, on communicator `comm` (p2p.cpp).
SCOMM_Request new_collective_request(p2p::Request&& request, SCOMM_Comm comm);

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

// A collective call on communicator e, with the library's selection and e's schedules.
inline coll::Call call_on(CommEntry& e, bool blocking) {
  return coll::Call{runtime(),
                    e.comm,
                    context().coll_selection,
                    blocking,
                    &e.schedules(context().shared_schedules),
                    context().coll_check};
}

// `start(call)` or `start(call, entry)`: the collective's request.
template <typename Start>
p2p::Request started(Start& start, const coll::Call& call, CommEntry& e) {
  if constexpr (std::is_invocable_v<Start, const coll::Call&, CommEntry&>)
    return start(call, e);
  else
    return start(call);
}

// Launches a collective on communicator e: `start(call)` or `start(call, entry)` returns its
// request, complete for a blocking call. In check mode a blocking call's members agree on
// `signature` before it sends anything (coll/agreement.hpp). With `args` (all of a blocking
// call's arguments, `types` its datatypes), a call that repeats the last one is replayed
// (coll/replay.hpp).
template <typename Start>
p2p::Request launch_collective(CommEntry& e, bool blocking, const coll::Signature& signature,
                               const coll::CallArgs* args,
                               std::initializer_list<MPI_Datatype> types, Start& start) {
  const auto launch = [&](const coll::Call& call) {
    const auto start_call = [&] { return started(start, call, e); };
    return args != nullptr ? coll::run_or_replay(call, signature.operation, *args, types,
                                                 signature.op, start_call)
                           : start_call();
  };
  const coll::Call call = call_on(e, blocking);
  if (call.check_agreement && blocking) [[unlikely]]
    return coll::launch_agreed(call, signature, launch);
  return launch(call);
}

// launch_collective on communicator `c`, a nonblocking call's request given a new handle in
// *request.
template <typename Start>
int run_collective(const char* function, SCOMM_Comm c, bool nonblocking, SCOMM_Request* request,
                   const coll::Signature& signature, const coll::CallArgs* args,
                   std::initializer_list<MPI_Datatype> types, Start&& start) noexcept {
  return on_comm(function, c, [&](CommEntry& e) {
    if (nonblocking) require(request, "request");
    p2p::Request done = launch_collective(e, !nonblocking, signature, args, types, start);
    if (nonblocking) *request = new_collective_request(std::move(done), c);
  });
}

// A blocking collective with `args`, every one of its arguments but the communicator, and
// `types`, its datatypes.
template <typename Start>
int collective(const char* function, SCOMM_Comm c, const coll::Signature& signature,
               const coll::CallArgs& args, std::initializer_list<MPI_Datatype> types,
               Start&& start) noexcept {
  return run_collective(function, c, false, nullptr, signature, &args, types,
                        std::forward<Start>(start));
}

// A blocking collective whose arguments a replay could not compare (the w-forms' arrays of
// datatypes): checked in check mode, never replayed.
template <typename Start>
int collective(const char* function, SCOMM_Comm c, const coll::Signature& signature,
               Start&& start) noexcept {
  return run_collective(function, c, false, nullptr, signature, nullptr, {},
                        std::forward<Start>(start));
}

// A nonblocking collective (not checked: starting one must not wait for the other members).
template <typename Start>
int collective(const char* function, SCOMM_Comm c, SCOMM_Request* request, Start&& start) noexcept {
  return run_collective(function, c, true, request, coll::Signature{}, nullptr, {},
                        std::forward<Start>(start));
}

// The type arguments of a persistent collective as each rank uses them (persistent_collective's
// `arguments`): both everywhere; the send type unless the rank sends in place; a gather's
// receive type at its root alone, and its send type but where the root gathers in place; a
// scatter's send type at its root alone, and its receive type but where the root keeps its block
// in place.
inline auto always_used(MPI_Datatype send, MPI_Datatype receive) {
  return [=](const CommEntry&) { return TypeArguments{{send, true}, {receive, true}}; };
}
inline auto sent_unless_in_place(const void* sendbuf, MPI_Datatype send, MPI_Datatype receive) {
  return [=](const CommEntry&) {
    return TypeArguments{{send, sendbuf != SCOMM_IN_PLACE}, {receive, true}};
  };
}
inline auto gathered_at(int root, const void* sendbuf, MPI_Datatype send, MPI_Datatype receive) {
  return [=](const CommEntry& e) {
    const bool at_root = e.comm.rank() == root;
    return TypeArguments{{send, !(at_root && sendbuf == SCOMM_IN_PLACE)}, {receive, at_root}};
  };
}
inline auto scattered_from(int root, const void* recvbuf, MPI_Datatype send, MPI_Datatype receive) {
  return [=](const CommEntry& e) {
    const bool at_root = e.comm.rank() == root;
    return TypeArguments{{send, at_root}, {receive, !(at_root && recvbuf == SCOMM_IN_PLACE)}};
  };
}

// A w-form's datatypes, one a block, as persistent_collective keeps them: the send types, then
// the receive types. None of a null array (the start's checks then fail as on the caller's), nor
// send types where the send buffer is MPI_IN_PLACE.
class WTypes {
 public:
  WTypes(const void* sendbuf, const MPI_Datatype* sendtypes, const MPI_Datatype* recvtypes,
         int send_blocks, int receive_blocks)
      : sendtypes_(sendtypes),
        recvtypes_(recvtypes),
        sends_(sendbuf == SCOMM_IN_PLACE || sendtypes == nullptr ? 0 : send_blocks),
        receives_(recvtypes == nullptr ? 0 : receive_blocks) {}

  TypeArguments arguments() const {
    TypeArguments all;
    all.reserve(static_cast<std::size_t>(sends_ + receives_));
    for (int i = 0; i < sends_; ++i) all.push_back({sendtypes_[i], true});
    for (int i = 0; i < receives_; ++i) all.push_back({recvtypes_[i], true});
    return all;
  }
  // The send and receive types a start passes on: the kept ones of `kept`, or the caller's.
  const MPI_Datatype* send(TypeList kept) const { return sends_ > 0 ? kept.data() : sendtypes_; }
  const MPI_Datatype* receive(TypeList kept) const {
    return receives_ > 0 ? kept.data() + sends_ : recvtypes_;
  }

 private:
  const MPI_Datatype* sendtypes_;
  const MPI_Datatype* recvtypes_;
  int sends_, receives_;
};

// A persistent collective (MPI-4's SCOMM_Bcast_init, ...) on communicator `c`: an inactive
// persistent request whose every SCOMM_Start launches `start(call, entry, types)` as the
// nonblocking collective, `types` the KeptTypes of `arguments(entry)` (the call's datatype
// arguments, in their order). The init runs `start` on the caller's types without launching
// (coll::Call::validates): bad arguments fail there, through the communicator's error handler,
// and the schedule is built and cached, so that no start builds one. What only a run finds (a
// failed transfer) fails at a start. `info` may be anything: no key is read.
template <typename Arguments, typename Start>
int persistent_collective(const char* function, SCOMM_Comm c, MPI_Info /*info*/,
                          SCOMM_Request* request, Arguments arguments, Start start) noexcept {
  return on_comm(function, c, [&](CommEntry& entry) {
    require(request, "request");
    const TypeArguments given = arguments(entry);
    std::vector<MPI_Datatype> callers;
    callers.reserve(given.size());
    for (const TypeArgument& argument : given) callers.push_back(argument.type);
    coll::Call checking = call_on(entry, false);
    checking.validates = true;
    start(checking, entry, TypeList(callers));
    auto kept = std::make_shared<const KeptTypes>(given);
    const PersistentCollective each_start = [start, kept](CommEntry& e,
                                                          SCOMM_Comm on_handle) mutable {
      auto with_kept = [&](const coll::Call& call, CommEntry& on) {
        return start(call, on, kept->types());
      };
      return new_collective_request(
          launch_collective(e, false, coll::Signature{}, nullptr, {}, with_kept), on_handle);
    };
    *request = new_persistent_request({each_start, c});
  });
}

// A persistent collective that names no datatype it must keep (a barrier, a reduction: see
// kept_types.hpp): `start(call)` or `start(call, entry)`.
template <typename Start>
int persistent_collective(const char* function, SCOMM_Comm c, MPI_Info info, SCOMM_Request* request,
                          Start start) noexcept {
  return persistent_collective(
      function, c, info, request, [](const CommEntry&) { return TypeArguments{}; },
      [start](const coll::Call& call, CommEntry& e, TypeList) mutable {
        return started(start, call, e);
      });
}

}  // namespace scomm::capi
