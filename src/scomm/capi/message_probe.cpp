// Matched probes: SCOMM_Improbe and SCOMM_Mprobe take a message out of matching (the engine's
// p2p::improbe) and give it a handle; SCOMM_Mrecv and SCOMM_Imrecv receive it, once.
#include <optional>
#include <string>

#include "scomm.h"
#include "scomm/capi/context.hpp"
#include "scomm/capi/message_start.hpp"
#include "scomm/capi/request_completion.hpp"
#include "scomm/p2p/committed_type.hpp"
#include "scomm/p2p/point_to_point.hpp"

namespace {

using namespace scomm::capi;
using scomm::Error;
using scomm::ErrorClass;
namespace p2p = scomm::p2p;

// One matched probe on communicator e: a message handle, or SCOMM_MESSAGE_NULL when none has
// arrived; *status written for a message found.
SCOMM_Message probe_once(CommEntry& e, SCOMM_Comm c, int source, int tag, SCOMM_Status* status) {
  p2p::Channel& channel = e.comm.channel();
  check_receive(channel, nullptr, 0, MPI_BYTE, source, tag);  // what SCOMM_Probe checks
  if (source == SCOMM_PROC_NULL) {
    write_status(p2p::Status::empty(), status);
    return SCOMM_MESSAGE_NO_PROC;
  }
  auto message = p2p::improbe(runtime().engine(), channel, source, tag);
  if (!message) return SCOMM_MESSAGE_NULL;
  write_status(p2p::translate(channel, message->status), status);
  return context().messages.emplace(MessageEntry{std::move(*message), e.comm.channel_ptr(), c});
}

// The message behind *handle, taken out of its table (*handle set to SCOMM_MESSAGE_NULL); none
// for SCOMM_MESSAGE_NO_PROC.
std::optional<MessageEntry> take_message(SCOMM_Message* handle) {
  require(handle, "message");
  if (*handle == SCOMM_MESSAGE_NO_PROC) {
    *handle = SCOMM_MESSAGE_NULL;
    return std::nullopt;
  }
  MessageEntry* entry = context().messages.find(*handle);
  if (entry == nullptr)
    throw Error(ErrorClass::kRequest, "message handle " + std::to_string(*handle) +
                                          " is not a probed message waiting for its receive");
  std::optional<MessageEntry> taken(std::move(*entry));
  context().messages.erase_live(*handle);
  *handle = SCOMM_MESSAGE_NULL;
  return taken;
}

// The communicator whose handler reports a receive of message *handle, from its first check on:
// the one the message was probed on; SCOMM_COMM_WORLD where there is none (no handle,
// SCOMM_MESSAGE_NO_PROC, a dead handle, which take_message then reports).
SCOMM_Comm reporting_comm(const SCOMM_Message* handle) {
  if (handle == nullptr) return SCOMM_COMM_WORLD;
  const MessageEntry* entry = context().messages.find(*handle);
  return entry != nullptr ? entry->comm : SCOMM_COMM_WORLD;
}

// The receive of a probed message: p2p's request, completed or not.
p2p::Request receive(MessageEntry& entry, void* buf, int count, MPI_Datatype type) {
  return p2p::receive_message(entry.message, entry.channel, buf, count, type);
}

}  // namespace

extern "C" {

int SCOMM_Improbe(int source, int tag, SCOMM_Comm comm, int* flag, SCOMM_Message* message,
                  SCOMM_Status* status) {
  const KeptErrorField kept(status);
  return on_comm("SCOMM_Improbe", comm, [&](CommEntry& e) {
    require(flag, "flag");
    require(message, "message");
    runtime().engine().progress_background();
    const SCOMM_Message found = probe_once(e, comm, source, tag, status);
    *flag = found != SCOMM_MESSAGE_NULL ? 1 : 0;
    if (*flag) *message = found;
  });
}

int SCOMM_Mprobe(int source, int tag, SCOMM_Comm comm, SCOMM_Message* message,
                 SCOMM_Status* status) {
  const KeptErrorField kept(status);
  return on_comm("SCOMM_Mprobe", comm, [&](CommEntry& e) {
    require(message, "message");
    for (;;) {
      const SCOMM_Message found = probe_once(e, comm, source, tag, status);
      if (found != SCOMM_MESSAGE_NULL) {
        *message = found;
        return;
      }
      runtime().engine().progress_background();
    }
  });
}

int SCOMM_Mrecv(void* buf, int count, MPI_Datatype type, SCOMM_Message* message,
                SCOMM_Status* status) {
  const KeptErrorField kept(status);
  return on_requests("SCOMM_Mrecv", [&](SCOMM_Comm& failing) {
    failing = reporting_comm(message);
    // Before the message is taken: a bad call keeps it.
    p2p::check_buffer(buf, count, type);
    p2p::check_committed(type, runtime().world());
    std::optional<MessageEntry> entry = take_message(message);
    if (!entry) {
      write_status(p2p::Status::empty(), status);
      return;
    }
    p2p::Request request = receive(*entry, buf, count, type);
    p2p::Status received;
    failure_to_status(status, [&] { request.wait(runtime().engine(), received); });
    write_status(received, status);
  });
}

int SCOMM_Imrecv(void* buf, int count, MPI_Datatype type, SCOMM_Message* message,
                 SCOMM_Request* request) {
  return on_requests("SCOMM_Imrecv", [&](SCOMM_Comm& failing) {
    failing = reporting_comm(message);
    require(request, "request");
    p2p::check_buffer(buf, count, type);
    p2p::check_committed(type, runtime().world());
    std::optional<MessageEntry> entry = take_message(message);
    if (!entry) {
      *request =
          context().requests.emplace([] { return p2p::Request::completed(); }, SCOMM_COMM_WORLD);
      return;
    }
    *request =
        context().requests.emplace([&] { return receive(*entry, buf, count, type); }, entry->comm);
  });
}

}  // extern "C"
