// Persistent requests: SCOMM_Send_init, SCOMM_Ssend_init, SCOMM_Recv_init, SCOMM_Start and
// SCOMM_Startall. A persistent request keeps its arguments (a message's checked when it is made,
// as MPI does); each start begins one nonblocking message as SCOMM_Isend, SCOMM_Issend or
// SCOMM_Irecv would, or one nonblocking collective (the persistent collectives, coll_call.hpp),
// which the completion calls complete in its place (StartedRequests). As in MPI, it may start
// after its communicator is freed: the communicator is retired until the last such request goes.
#include <string>

#include "scomm.h"
#include "scomm/capi/context.hpp"
#include "scomm/capi/message_start.hpp"
#include "scomm/capi/request_completion.hpp"

namespace scomm::capi {

StartedRequests::StartedRequests(int count, SCOMM_Request requests[]) : requests_(requests) {
  if (context().persistent_requests == 0) return;
  HandleTable<RequestEntry>& table = context().requests;
  for (int i = 0; i < count; ++i) {
    if (requests[i] == SCOMM_REQUEST_NULL ||
        HandleTable<PlainRequestEntry>::has_upper_kind(requests[i]))
      continue;
    const RequestEntry* entry = table.find(requests[i]);
    if (entry == nullptr || !entry->persistent) continue;
    swapped_.emplace_back(i, requests[i]);
    requests[i] = entry->persistent->started;
  }
}

StartedRequests::~StartedRequests() {
  for (const auto& [i, persistent] : swapped_) {
    context().requests.get_live(persistent).persistent->started = requests_[i];
    requests_[i] = persistent;
  }
}

SCOMM_Request new_persistent_request(const PersistentCall& call) {
  const SCOMM_Request handle = context().requests.emplace(call, call.comm);
  ++context().persistent_requests;
  ++comm_entry(call.comm).persistent_requests;
  return handle;
}

void release_persistent_request(const PersistentCall& call) noexcept {
  --context().persistent_requests;
  CommEntry* on = context().comms.find(call.comm);
  if (on != nullptr && --on->persistent_requests == 0 && on->retired)
    context().comms.erase_live(call.comm);
}

namespace {

// Makes the requests of communicator `stale` (the persistent ones and those they started) report
// as communicator `kept`.
void move_requests(SCOMM_Comm stale, SCOMM_Comm kept) noexcept {
  context().requests.for_each_live([&](SCOMM_Request, RequestEntry& entry) {
    if (!entry.persistent || entry.persistent->comm != stale) return;
    entry.comm = entry.persistent->comm = kept;
    const SCOMM_Request started = entry.persistent->started;
    if (auto* plain = context().plain_requests.find(started)) plain->comm = kept;
    if (auto* general = context().requests.find(started)) general->comm = kept;
  });
}

}  // namespace

void retire_comm(SCOMM_Comm handle) noexcept {
  CommEntry& entry = context().comms.get_live(handle);
  entry.retired = true;
  move_requests(handle, context().comms.renew(handle));
}

}  // namespace scomm::capi

namespace {

using namespace scomm::capi;
using scomm::Error;
using scomm::ErrorClass;
namespace p2p = scomm::p2p;
using Mode = p2p::SendMode;

// A persistent message on communicator `comm`, its arguments checked by starting nothing.
int init(const char* function, const PersistentMessage& m, SCOMM_Comm comm,
         SCOMM_Request* request) {
  return on_comm(function, comm, [&](CommEntry& e) {
    require(request, "request");
    const auto check = m.receive ? check_receive : check_send;
    check(e.comm.channel(), m.buffer, m.count, m.type, m.peer, m.tag);
    PersistentMessage kept = m;
    kept.kept = std::make_shared<const KeptTypes>(TypeArguments{{m.type, true}});
    kept.type = kept.kept->types()[0];
    *request = new_persistent_request({kept, comm});
  });
}

int init_send(const char* function, Mode mode, const void* buf, int count, MPI_Datatype type,
              int dest, int tag, SCOMM_Comm comm, SCOMM_Request* request) {
  // The buffer is only read: a send's start passes it on as const again.
  return init(function, {false, mode, const_cast<void*>(buf), count, type, dest, tag, {}}, comm,
              request);
}

// Starts persistent request `handle`, which must be inactive.
void start(SCOMM_Request handle, SCOMM_Comm& failing) {
  RequestEntry* entry = HandleTable<PlainRequestEntry>::has_upper_kind(handle)
                            ? nullptr
                            : context().requests.find(handle);
  if (entry == nullptr || !entry->persistent)
    throw Error(ErrorClass::kRequest,
                "request handle " + std::to_string(handle) + " is not a live persistent request");
  PersistentCall& call = *entry->persistent;
  failing = call.comm;
  if (call.started != SCOMM_REQUEST_NULL)
    throw Error(ErrorClass::kRequest, "persistent request " + std::to_string(handle) +
                                          " is active: it must complete before it starts again");
  CommEntry& e = comm_entry(call.comm);
  if (auto* collective = std::get_if<PersistentCollective>(&call.what)) {
    call.started = (*collective)(e, call.comm);
    return;
  }
  const auto& m = std::get<PersistentMessage>(call.what);
  call.started =
      m.receive ? start_irecv(e, call.comm, {m.buffer, m.count, m.type, m.peer, m.tag})
                : start_isend(e, call.comm, {m.buffer, m.count, m.type, m.peer, m.tag}, m.mode);
}

}  // namespace

extern "C" {

int SCOMM_Send_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                    SCOMM_Comm comm, SCOMM_Request* request) {
  return init_send("SCOMM_Send_init", Mode::kStandard, buf, count, datatype, dest, tag, comm,
                   request);
}

int SCOMM_Ssend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                     SCOMM_Comm comm, SCOMM_Request* request) {
  return init_send("SCOMM_Ssend_init", Mode::kSynchronous, buf, count, datatype, dest, tag, comm,
                   request);
}

int SCOMM_Bsend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                     SCOMM_Comm comm, SCOMM_Request* request) {
  return init_send("SCOMM_Bsend_init", Mode::kBuffered, buf, count, datatype, dest, tag, comm,
                   request);
}

int SCOMM_Rsend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                     SCOMM_Comm comm, SCOMM_Request* request) {
  return init_send("SCOMM_Rsend_init", Mode::kStandard, buf, count, datatype, dest, tag, comm,
                   request);
}

int SCOMM_Recv_init(void* buf, int count, MPI_Datatype datatype, int source, int tag,
                    SCOMM_Comm comm, SCOMM_Request* request) {
  return init("SCOMM_Recv_init", {true, Mode::kStandard, buf, count, datatype, source, tag, {}},
              comm, request);
}

int SCOMM_Start(SCOMM_Request* request) {
  return on_requests("SCOMM_Start", [&](SCOMM_Comm& failing) {
    require(request, "request");
    start(*request, failing);
  });
}

// Starts them in order; the first that cannot start ends the call, those before it started.
int SCOMM_Startall(int count, SCOMM_Request requests[]) {
  return on_requests("SCOMM_Startall", [&](SCOMM_Comm& failing) {
    check_array(count, requests);
    for (int i = 0; i < count; ++i) start(requests[i], failing);
  });
}

}  // extern "C"
