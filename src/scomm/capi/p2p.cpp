// SCOMM_Send ... SCOMM_Probe: argument checks, then the p2p layer on the communicator's channel.
#include <cstddef>
#include <exception>
#include <vector>

#include "scomm.h"
#include "scomm/capi/context.hpp"
#include "scomm/capi/message_start.hpp"
#include "scomm/capi/request_completion.hpp"
#include "scomm/p2p/committed_type.hpp"
#include "scomm/p2p/packed_buffer.hpp"
#include "scomm/p2p/point_to_point.hpp"

namespace scomm::capi {

void write_status(const p2p::Status& from, SCOMM_Status* to) {
  if (to == SCOMM_STATUS_IGNORE) return;
  to->SCOMM_SOURCE = from.source;
  to->SCOMM_TAG = from.tag;
  to->SCOMM_ERROR = from.error;
  to->scomm_cancelled_ = from.cancelled ? 1 : 0;
  to->scomm_mpi_ = from.mpi;
  if (from.is_empty) {
    MPI_Status_set_elements(&to->scomm_mpi_, MPI_BYTE, 0);
    MPI_Status_set_cancelled(&to->scomm_mpi_, from.cancelled ? 1 : 0);
    to->scomm_mpi_.MPI_SOURCE = MPI_PROC_NULL;
    to->scomm_mpi_.MPI_TAG = MPI_ANY_TAG;
    to->scomm_mpi_.MPI_ERROR = MPI_SUCCESS;
  }
}

void write_failure(const std::exception_ptr& failure, SCOMM_Status* to) {
  if (to != SCOMM_STATUS_IGNORE) write_status(p2p::failed_status(failure), to);
}

SCOMM_Request new_collective_request(p2p::Request&& request, SCOMM_Comm comm) {
  const SCOMM_Request handle = context().requests.emplace([&] { return std::move(request); }, comm);
  context().requests.get_live(handle).collective = true;
  return handle;
}

void check_send(const p2p::Channel& channel, const void* buf, int count, MPI_Datatype type,
                int dest, int tag) {
  p2p::check_buffer(buf, count, type);
  p2p::check_committed(type, channel.base());
  p2p::check_peer(channel, dest, false);
  p2p::check_tag(tag, channel.tag_ub(), false);
}

void check_receive(const p2p::Channel& channel, const void* buf, int count, MPI_Datatype type,
                   int source, int tag) {
  p2p::check_buffer(buf, count, type);
  p2p::check_committed(type, channel.base());
  p2p::check_peer(channel, source, true);
  p2p::check_tag(tag, channel.tag_ub(), true);
}

SCOMM_Request start_isend(CommEntry& e, SCOMM_Comm c, const Transfer<const void*>& out,
                          p2p::SendMode mode) {
  const p2p::Channel& channel = e.comm.channel();
  check_send(channel, out.buffer, out.count, out.type, out.peer, out.tag);
  return context().plain_requests.emplace(
      [&] { return p2p::isend(channel, out.buffer, out.count, out.type, out.peer, out.tag, mode); },
      c);
}

SCOMM_Request start_irecv(CommEntry& e, SCOMM_Comm c, const Transfer<void*>& in) {
  const p2p::Channel& channel = e.comm.channel();
  check_receive(channel, in.buffer, in.count, in.type, in.peer, in.tag);
  const p2p::ChannelPtr& shared = e.comm.channel_ptr();
  if (p2p::receive_is_plain(channel, in.peer, in.tag)) {
    return context().plain_requests.emplace(
        [&] { return p2p::irecv_plain(shared, in.buffer, in.count, in.type, in.peer, in.tag); }, c);
  }
  p2p::MatchingEngine& engine = runtime().engine();
  return context().requests.emplace(
      [&] { return p2p::irecv(engine, shared, in.buffer, in.count, in.type, in.peer, in.tag); }, c);
}

}  // namespace scomm::capi

namespace {

using namespace scomm::capi;
namespace p2p = scomm::p2p;
namespace comm = scomm::comm;

// Both complete before the call returns, the send also when the receive fails (the caller may
// then reuse its buffer), and the first failure is thrown after.
void send_and_receive(const Transfer<const void*>& out, const Transfer<void*>& in, CommEntry& e,
                      SCOMM_Status* status) {
  auto& engine = runtime().engine();
  p2p::Request receive =
      p2p::irecv(engine, e.comm.channel_ptr(), in.buffer, in.count, in.type, in.peer, in.tag);
  p2p::PlainRequest send = p2p::isend(e.comm.channel(), out.buffer, out.count, out.type, out.peer,
                                      out.tag, p2p::SendMode::kStandard);
  p2p::Status received, sent;
  bool receive_done = false, send_done = false;
  std::exception_ptr failure;
  const auto advance = [&failure](bool& done, auto&& test) {
    try {
      done = done || test();
    } catch (...) {
      done = true;
      if (!failure) failure = std::current_exception();
    }
  };
  while (!receive_done || !send_done) {
    advance(receive_done, [&] { return receive.test(engine, received); });
    advance(send_done, [&] { return send.test(sent); });
    engine.progress_background();
  }
  if (failure) {
    write_failure(failure, status);
    std::rethrow_exception(failure);
  }
  write_status(received, status);
}

// `count` elements of `type` at `buffer`, packed as MPI packs them for `comm`.
std::vector<std::byte> pack(const void* buffer, int count, MPI_Datatype type, MPI_Comm comm) {
  int bytes = 0, position = 0;
  p2p::check_mpi(MPI_Pack_size(count, type, comm, &bytes), "MPI_Pack_size");
  if (bytes == 0) return {};  // Open MPI's MPI_Pack refuses the null output of an empty vector
  std::vector<std::byte> packed(static_cast<std::size_t>(bytes));
  const p2p::PackedBuffer from(buffer, type);  // MPI_BOTTOM too
  p2p::check_mpi(MPI_Pack(from.buffer(), count, from.type(), packed.data(), bytes, &position, comm),
                 "MPI_Pack");
  packed.resize(static_cast<std::size_t>(position));
  return packed;
}

// Every message call has a fast path: a live communicator, plain_arguments() (a named peer and
// tag, valid arguments), MPI left to match alone and, for a nonblocking one, a request slot free.
// It goes straight to MPI with no exception handling on the way; anything else, every error
// included, takes the general path, which checks each argument and reports what is wrong.

// The general paths, out of line so that the fast paths keep small frames; flattened, as they
// are still the way of every message with MPI_ANY_SOURCE, MPI_ANY_TAG or MPI_PROC_NULL.
[[gnu::noinline, gnu::flatten]] int send_general(const char* function, const void* buf, int count,
                                                 MPI_Datatype type, int dest, int tag, SCOMM_Comm c,
                                                 p2p::SendMode mode) {
  return on_comm(function, c, [&](CommEntry& e) {
    const p2p::Channel& channel = e.comm.channel();
    check_send(channel, buf, count, type, dest, tag);
    p2p::send(runtime().engine(), channel, buf, count, type, dest, tag, mode);
  });
}

[[gnu::noinline, gnu::flatten]] int isend_general(const char* function, const void* buf, int count,
                                                  MPI_Datatype type, int dest, int tag,
                                                  SCOMM_Comm c, SCOMM_Request* request,
                                                  p2p::SendMode mode) {
  return on_comm(function, c, [&](CommEntry& e) {
    require(request, "request");
    *request = start_isend(e, c, {buf, count, type, dest, tag}, mode);
  });
}

[[gnu::noinline, gnu::flatten]] int recv_general(void* buf, int count, MPI_Datatype type,
                                                 int source, int tag, SCOMM_Comm c,
                                                 SCOMM_Status* status) {
  return on_comm("SCOMM_Recv", c, [&](CommEntry& e) {
    p2p::Channel& channel = e.comm.channel();
    check_receive(channel, buf, count, type, source, tag);
    const auto receive = [&] {
      return p2p::recv(runtime().engine(), channel, buf, count, type, source, tag,
                       status != SCOMM_STATUS_IGNORE);
    };
    write_status(failure_to_status(status, receive), status);
  });
}

[[gnu::noinline, gnu::flatten]] int irecv_general(void* buf, int count, MPI_Datatype type,
                                                  int source, int tag, SCOMM_Comm c,
                                                  SCOMM_Request* request) {
  return on_comm("SCOMM_Irecv", c, [&](CommEntry& e) {
    require(request, "request");
    *request = start_irecv(e, c, {buf, count, type, source, tag});
  });
}

// A base MPI call of a fast path failed: reported as the general path reports it.
[[gnu::cold, gnu::noinline]] int fail(const char* function, SCOMM_Comm c, int rc,
                                      const char* call) noexcept {
  return on_comm(function, c, [&](CommEntry&) { p2p::check_mpi(rc, call); });
}

// fail() for a receive, MPI's status of its message `message` (a truncated one's tells the
// message's source, tag and size; written to *status as in the general path).
[[gnu::cold, gnu::noinline]] int fail_receive(SCOMM_Comm c, int rc, const p2p::Status& message,
                                              SCOMM_Status* status) noexcept {
  return on_comm("SCOMM_Recv", c, [&](CommEntry&) {
    failure_to_status(status, [&] { p2p::throw_receive_failure(rc, message); });
  });
}

// The communicator of a fast path, when live.
[[gnu::always_inline]] inline const comm::Comm* live_comm(SCOMM_Comm c) noexcept {
  const CommEntry* entry = context().comms.find(c);
  return entry != nullptr ? &entry->comm : nullptr;
}

[[gnu::always_inline]] inline int send(const char* function, const void* buf, int count,
                                       MPI_Datatype type, int dest, int tag, SCOMM_Comm c,
                                       p2p::SendMode mode) {
  const comm::Comm* fast = live_comm(c);
  if (fast != nullptr && p2p::plain_arguments(fast->channel(), buf, count, type, dest, tag))
      [[likely]] {
    const int rc = p2p::send_plain(context().runtime->engine(), fast->channel(), buf, count, type,
                                   dest, tag, mode);
    return rc == MPI_SUCCESS ? SCOMM_SUCCESS : fail(function, c, rc, "send");
  }
  return send_general(function, buf, count, type, dest, tag, c, mode);
}

[[gnu::always_inline]] inline int isend(const char* function, const void* buf, int count,
                                        MPI_Datatype type, int dest, int tag, SCOMM_Comm c,
                                        SCOMM_Request* request, p2p::SendMode mode) {
  HandleTable<PlainRequestEntry>& requests = context().plain_requests;
  const comm::Comm* fast = live_comm(c);
  if (fast != nullptr && request != nullptr && requests.has_free_slot() &&
      p2p::plain_arguments(fast->channel(), buf, count, type, dest, tag)) [[likely]] {
    MPI_Request mpi;  // written by MPI
    const int rc = p2p::start_send(fast->channel(), buf, count, type, dest, tag, mode, &mpi);
    if (rc != MPI_SUCCESS) [[unlikely]]
      return fail(function, c, rc, "isend");
    *request = requests.emplace_in_free_slot([mpi] { return p2p::PlainRequest(mpi); }, c);
    return SCOMM_SUCCESS;
  }
  return isend_general(function, buf, count, type, dest, tag, c, request, mode);
}

}  // namespace

extern "C" {

int SCOMM_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, SCOMM_Comm c) {
  return send("SCOMM_Send", buf, count, type, dest, tag, c, p2p::SendMode::kStandard);
}

int SCOMM_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, SCOMM_Comm c) {
  return send("SCOMM_Ssend", buf, count, type, dest, tag, c, p2p::SendMode::kSynchronous);
}

int SCOMM_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, SCOMM_Comm c,
                SCOMM_Request* request) {
  return isend("SCOMM_Isend", buf, count, type, dest, tag, c, request, p2p::SendMode::kStandard);
}

int SCOMM_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, SCOMM_Comm c,
                 SCOMM_Request* request) {
  return isend("SCOMM_Issend", buf, count, type, dest, tag, c, request,
               p2p::SendMode::kSynchronous);
}

int SCOMM_Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, SCOMM_Comm c) {
  return send("SCOMM_Bsend", buf, count, type, dest, tag, c, p2p::SendMode::kBuffered);
}

int SCOMM_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, SCOMM_Comm c) {
  return send("SCOMM_Rsend", buf, count, type, dest, tag, c, p2p::SendMode::kStandard);
}

int SCOMM_Ibsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, SCOMM_Comm c,
                 SCOMM_Request* request) {
  return isend("SCOMM_Ibsend", buf, count, type, dest, tag, c, request, p2p::SendMode::kBuffered);
}

int SCOMM_Irsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, SCOMM_Comm c,
                 SCOMM_Request* request) {
  return isend("SCOMM_Irsend", buf, count, type, dest, tag, c, request, p2p::SendMode::kStandard);
}

int SCOMM_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, SCOMM_Comm c,
               SCOMM_Status* status) {
  const KeptErrorField kept(status);
  const comm::Comm* fast = live_comm(c);
  if (fast != nullptr && p2p::plain_arguments(fast->channel(), buf, count, type, source, tag) &&
      p2p::mpi_matches_alone(fast->channel())) [[likely]] {
    const p2p::Channel& channel = fast->channel();
    MPI_Status mpi;
    const int rc = p2p::receive_plain(context().runtime->engine(), channel, buf, count, type,
                                      channel.select(source), tag,
                                      status == SCOMM_STATUS_IGNORE ? MPI_STATUS_IGNORE : &mpi);
    if (rc != MPI_SUCCESS) [[unlikely]]
      return fail_receive(c, rc, p2p::Status::received(source, tag, mpi), status);
    if (status != SCOMM_STATUS_IGNORE)
      write_status(p2p::Status::received(source, tag, mpi), status);
    return SCOMM_SUCCESS;
  }
  return recv_general(buf, count, type, source, tag, c, status);
}

int SCOMM_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, SCOMM_Comm c,
                SCOMM_Request* request) {
  HandleTable<PlainRequestEntry>& requests = context().plain_requests;
  const comm::Comm* fast = live_comm(c);
  if (fast != nullptr && request != nullptr && requests.has_free_slot() &&
      p2p::plain_arguments(fast->channel(), buf, count, type, source, tag) &&
      p2p::mpi_matches_alone(fast->channel())) [[likely]] {
    const p2p::Channel& channel = fast->channel();
    MPI_Request mpi;  // written by MPI
    const int rc = p2p::start_receive(channel, buf, count, type, channel.select(source), tag, &mpi);
    if (rc != MPI_SUCCESS) [[unlikely]]
      return fail("SCOMM_Irecv", c, rc, "MPI_Irecv");
    *request = requests.emplace_in_free_slot(
        [&] { return p2p::PlainRequest(mpi, fast->channel_ptr(), source, tag); }, c);
    return SCOMM_SUCCESS;
  }
  return irecv_general(buf, count, type, source, tag, c, request);
}

int SCOMM_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                   void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                   SCOMM_Comm c, SCOMM_Status* status) {
  const KeptErrorField kept(status);
  return on_comm("SCOMM_Sendrecv", c, [&](CommEntry& e) {
    check_send(e.comm.channel(), sendbuf, sendcount, sendtype, dest, sendtag);
    check_receive(e.comm.channel(), recvbuf, recvcount, recvtype, source, recvtag);
    send_and_receive({sendbuf, sendcount, sendtype, dest, sendtag},
                     {recvbuf, recvcount, recvtype, source, recvtag}, e, status);
  });
}

int SCOMM_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag,
                           int source, int recvtag, SCOMM_Comm c, SCOMM_Status* status) {
  const KeptErrorField kept(status);
  return on_comm("SCOMM_Sendrecv_replace", c, [&](CommEntry& e) {
    check_send(e.comm.channel(), buf, count, type, dest, sendtag);
    check_receive(e.comm.channel(), buf, count, type, source, recvtag);
    // The outgoing data leaves the buffer first, packed, as the message arriving may overwrite
    // it before the send completes; MPI_PACKED matches any receive type of the same signature.
    const std::vector<std::byte> packed = pack(buf, count, type, e.comm.channel().base());
    send_and_receive({packed.data(), static_cast<int>(packed.size()), MPI_PACKED, dest, sendtag},
                     {buf, count, type, source, recvtag}, e, status);
  });
}

int SCOMM_Probe(int source, int tag, SCOMM_Comm c, SCOMM_Status* status) {
  const KeptErrorField kept(status);
  return on_comm("SCOMM_Probe", c, [&](CommEntry& e) {
    check_receive(e.comm.channel(), nullptr, 0, MPI_BYTE, source, tag);
    write_status(p2p::probe(runtime().engine(), e.comm.channel(), source, tag), status);
  });
}

int SCOMM_Iprobe(int source, int tag, SCOMM_Comm c, int* flag, SCOMM_Status* status) {
  const KeptErrorField kept(status);
  return on_comm("SCOMM_Iprobe", c, [&](CommEntry& e) {
    require(flag, "flag");
    check_receive(e.comm.channel(), nullptr, 0, MPI_BYTE, source, tag);
    runtime().engine().progress_background();
    const auto found = p2p::iprobe(runtime().engine(), e.comm.channel(), source, tag);
    *flag = found ? 1 : 0;
    if (found) write_status(*found, status);
  });
}

}  // extern "C"
