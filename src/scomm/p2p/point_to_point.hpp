// Sends, receives and probes on a channel. Ranks are communicator ranks (or MPI_PROC_NULL,
// MPI_ANY_SOURCE), tags user tags (or MPI_ANY_TAG); arguments are checked by check_* first.
#pragma once

#include <mpi.h>

#include <memory>
#include <optional>

#include "scomm/p2p/mpi_check.hpp"
#include "scomm/p2p/plain_request.hpp"
#include "scomm/p2p/request.hpp"

namespace scomm::p2p {

// MPI's send modes. Ready mode is standard mode here: its receive may wait in scomm's engine,
// not in MPI, where an MPI_Rsend would find no receive posted (MPI lets a ready send be standard).
enum class SendMode { kStandard, kSynchronous, kBuffered };

// The errors the checks below throw, with the offending value; out of line, as they are rare.
[[noreturn]] void throw_bad_peer(int rank, int size);
[[noreturn]] void throw_bad_tag(int tag, int tag_ub);
[[noreturn]] void throw_bad_count(int count);
// Throws for MPI_DATATYPE_NULL, and for a buffer that names no memory unless the type is empty
// or the buffer is MPI_BOTTOM (null) under a type of absolute addresses.
void check_memoryless_buffer(const void* buffer, MPI_Datatype type);
// Whether data of `type` at MPI_BOTTOM (a null buffer, in Open MPI and MPICH) lie at absolute
// addresses: the type's true lower bound is not 0, so its first byte is not at address 0. Open
// MPI's and MPICH's own test of a null buffer with data.
bool at_absolute_addresses(MPI_Datatype type);

// Whether a message buffer names no memory: null, or MPI_IN_PLACE, an address in name only
// ((void*)1 in Open MPI, (void*)-1 in MPICH) that no point-to-point call takes; MPI would read
// or write it as memory and crash.
inline bool names_no_memory(const void* buffer) noexcept {
  return buffer == nullptr || buffer == MPI_IN_PLACE;
}
// Whether `count` elements may be at `buffer`: any count at a real address, none at no memory.
// The hint keeps the count's test off the common path (SCOMM_Isend 89 own instructions, 91
// without it).
inline bool buffer_holds(const void* buffer, int count) noexcept {
  if (!names_no_memory(buffer)) [[likely]]
    return true;
  return count == 0;
}

// Throw Error(kRank / kTag / kCount / kType / kBuffer). Inline: every message passes them.
inline void check_peer(const Channel& channel, int rank, bool any_source_allowed) {
  if (rank == MPI_PROC_NULL || (any_source_allowed && rank == MPI_ANY_SOURCE)) return;
  if (rank < 0 || rank >= channel.size()) throw_bad_peer(rank, channel.size());
}
inline void check_tag(int tag, int tag_ub, bool any_tag_allowed) {
  if (any_tag_allowed && tag == MPI_ANY_TAG) return;
  if (tag < 0 || tag > tag_ub) throw_bad_tag(tag, tag_ub);
}
inline void check_buffer(const void* buffer, int count, MPI_Datatype type) {
  if (count < 0) throw_bad_count(count);
  if (type == MPI_DATATYPE_NULL || !buffer_holds(buffer, count))
    check_memoryless_buffer(buffer, type);
}

// Whether the arguments of a message are valid, with a named peer and tag (not MPI_PROC_NULL,
// MPI_ANY_SOURCE or MPI_ANY_TAG), on a channel whose rank map is a progression (a box of at most
// one dimension: select() is arithmetic, with no call). The C API's fast paths take such
// messages straight to MPI, and leave any other to the general path, whose check_*() tell what
// is wrong.
inline bool plain_arguments(const Channel& channel, const void* buffer, int count,
                            MPI_Datatype type, int peer, int tag) noexcept {
  const std::optional<group::Box>& box = channel.box();
  return box && box->ndims() <= 1 &&
         static_cast<unsigned>(peer) < static_cast<unsigned>(box->size()) &&
         static_cast<unsigned>(tag) <= static_cast<unsigned>(channel.tag_ub()) && count >= 0 &&
         type != MPI_DATATYPE_NULL && buffer_holds(buffer, count);
}

// Starts a send on MPI (dest a communicator rank, not MPI_PROC_NULL); MPI's return code.
inline int start_send(const Channel& channel, const void* buffer, int count, MPI_Datatype type,
                      int dest, int tag, SendMode mode, MPI_Request* request) noexcept {
  const int to = channel.select(dest), mpi_tag = channel.mpi_tag(tag);
  switch (mode) {
    case SendMode::kStandard:
      return MPI_Isend(buffer, count, type, to, mpi_tag, channel.base(), request);
    case SendMode::kSynchronous:
      return MPI_Issend(buffer, count, type, to, mpi_tag, channel.base(), request);
    case SendMode::kBuffered:
      return MPI_Ibsend(buffer, count, type, to, mpi_tag, channel.base(), request);
  }
  return MPI_ERR_ARG;
}
// Starts a receive on MPI from `from` (a base rank or MPI_ANY_SOURCE), which MPI alone matches;
// MPI's return code.
inline int start_receive(const Channel& channel, void* buffer, int count, MPI_Datatype type,
                         int from, int tag, MPI_Request* request) noexcept {
  return MPI_Irecv(buffer, count, type, from, channel.mpi_tag(tag), channel.base(), request);
}
// Blocking forms of start_send() and start_receive().
inline int send_now(const Channel& channel, const void* buffer, int count, MPI_Datatype type,
                    int dest, int tag, SendMode mode) noexcept {
  const int to = channel.select(dest), mpi_tag = channel.mpi_tag(tag);
  switch (mode) {
    case SendMode::kStandard:
      return MPI_Send(buffer, count, type, to, mpi_tag, channel.base());
    case SendMode::kSynchronous:
      return MPI_Ssend(buffer, count, type, to, mpi_tag, channel.base());
    case SendMode::kBuffered:
      return MPI_Bsend(buffer, count, type, to, mpi_tag, channel.base());
  }
  return MPI_ERR_ARG;
}
inline int receive_now(const Channel& channel, void* buffer, int count, MPI_Datatype type, int from,
                       int tag, MPI_Status* status) noexcept {
  return MPI_Recv(buffer, count, type, from, channel.mpi_tag(tag), channel.base(), status);
}
// send_now() and receive_now(), or, while the engine has background work (which a process
// blocked inside MPI would stall), the message started on MPI and waited for by
// wait_progressing(). MPI's return code. The polling halves are out of line, so that the blocking
// calls' fast paths (SCOMM_Send, SCOMM_Recv) carry neither their code nor their frame.
[[gnu::noinline]] int send_progressing(MatchingEngine& engine, const Channel& channel,
                                       const void* buffer, int count, MPI_Datatype type, int dest,
                                       int tag, SendMode mode) noexcept;
[[gnu::noinline]] int receive_progressing(MatchingEngine& engine, const Channel& channel,
                                          void* buffer, int count, MPI_Datatype type, int from,
                                          int tag, MPI_Status* status) noexcept;
inline int send_plain(MatchingEngine& engine, const Channel& channel, const void* buffer, int count,
                      MPI_Datatype type, int dest, int tag, SendMode mode) noexcept {
  if (!engine.has_background()) [[likely]]
    return send_now(channel, buffer, count, type, dest, tag, mode);
  return send_progressing(engine, channel, buffer, count, type, dest, tag, mode);
}
inline int receive_plain(MatchingEngine& engine, const Channel& channel, void* buffer, int count,
                         MPI_Datatype type, int from, int tag, MPI_Status* status) noexcept {
  if (!engine.has_background()) [[likely]]
    return receive_now(channel, buffer, count, type, from, tag, status);
  return receive_progressing(engine, channel, buffer, count, type, from, tag, status);
}
// start_send() and start_receive() with a failure thrown.
MPI_Request post_send(const Channel& channel, const void* buffer, int count, MPI_Datatype type,
                      int dest, int tag, SendMode mode);
inline MPI_Request post_receive(const Channel& channel, void* buffer, int count, MPI_Datatype type,
                                int from, int tag) {
  MPI_Request request = MPI_REQUEST_NULL;
  check_mpi(start_receive(channel, buffer, count, type, from, tag, &request), "MPI_Irecv");
  return request;
}
// Whether MPI can match a receive of the channel with a specific source and tag by itself: no
// message of the channel taken off MPI by the matching engine, no engine receive queued.
inline bool mpi_matches_alone(const Channel& channel) noexcept {
  return !channel.has_unexpected() && !channel.has_posted();
}
// Posts a receive from communicator rank `source` with a user or internal tag straight on MPI
// when mpi_matches_alone(channel). False, having posted nothing, otherwise (then irecv() is the
// way). Its completion needs no status translation.
inline bool post_direct_receive(const Channel& channel, void* buffer, int count, MPI_Datatype type,
                                int source, int tag, MPI_Request* request) {
  if (!mpi_matches_alone(channel)) return false;
  *request = post_receive(channel, buffer, count, type, channel.select(source), tag);
  return true;
}

// Blocks in MPI, or polls while background operations need progress.
void send(MatchingEngine& engine, const Channel& channel, const void* buffer, int count,
          MPI_Datatype type, int dest, int tag, SendMode mode);
// A pending send holds no channel: its context is the receiver's concern.
PlainRequest isend(const Channel& channel, const void* buffer, int count, MPI_Datatype type,
                   int dest, int tag, SendMode mode);

// With `want_status` false the status is not translated (only an MPI_ANY_SOURCE sender is
// checked for membership) and the result carries no source or tag.
Status recv(MatchingEngine& engine, Channel& channel, void* buffer, int count, MPI_Datatype type,
            int source, int tag, bool want_status = true);
Request irecv(MatchingEngine& engine, const ChannelPtr& channel, void* buffer, int count,
              MPI_Datatype type, int source, int tag);
// Whether a receive can be a PlainRequest: from MPI_PROC_NULL, or from a named source with a
// named tag on a channel whose messages MPI alone matches.
inline bool receive_is_plain(const Channel& channel, int source, int tag) noexcept {
  return source == MPI_PROC_NULL ||
         (source != MPI_ANY_SOURCE && tag != MPI_ANY_TAG && mpi_matches_alone(channel));
}
// irecv() of a receive for which receive_is_plain().
inline PlainRequest irecv_plain(const ChannelPtr& channel, void* buffer, int count,
                                MPI_Datatype type, int source, int tag) {
  if (source == MPI_PROC_NULL) return PlainRequest();
  return PlainRequest(post_receive(*channel, buffer, count, type, channel->select(source), tag),
                      channel, source, tag);
}

std::optional<Status> iprobe(MatchingEngine& engine, Channel& channel, int source, int tag);
Status probe(MatchingEngine& engine, Channel& channel, int source, int tag);

// Matched probes: the message a receive (source, tag) on `channel` would take now, taken out of
// matching (no other receive or probe sees it again), or none. Source: a rank or MPI_ANY_SOURCE
// (not MPI_PROC_NULL).
std::optional<ProbedMessage> improbe(MatchingEngine& engine, Channel& channel, int source, int tag);
// Receives a message improbe() took into (buffer, count, type): a receive the engine has matched
// already (a message larger than the buffer fails it with truncation).
Request receive_message(ProbedMessage& message, const ChannelPtr& channel, void* buffer, int count,
                        MPI_Datatype type);

}  // namespace scomm::p2p
