// Sends, receives and probes on a channel. Ranks are communicator ranks (or MPI_PROC_NULL,
// MPI_ANY_SOURCE), tags user tags (or MPI_ANY_TAG); arguments are checked by check_* first.
#pragma once

#include <mpi.h>

#include <memory>
#include <optional>

#include "scomm/p2p/mpi_check.hpp"
#include "scomm/p2p/request.hpp"

namespace scomm::p2p {

enum class SendMode { kStandard, kSynchronous };

// The errors the checks below throw, with the offending value; out of line, as they are rare.
[[noreturn]] void throw_bad_peer(int rank, int size);
[[noreturn]] void throw_bad_tag(int tag, int tag_ub);
[[noreturn]] void throw_bad_count(int count);
// Throws for MPI_DATATYPE_NULL, and for a null buffer unless the type is empty.
void check_null_buffer(MPI_Datatype type);

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
  if (type == MPI_DATATYPE_NULL || (buffer == nullptr && count > 0)) check_null_buffer(type);
}

// Posts a send on MPI (dest a communicator rank, not MPI_PROC_NULL).
MPI_Request post_send(const Channel& channel, const void* buffer, int count, MPI_Datatype type,
                      int dest, int tag, SendMode mode);
// Posts a receive on MPI from `from` (a base rank or MPI_ANY_SOURCE): MPI alone matches it.
inline MPI_Request post_receive(const Channel& channel, void* buffer, int count, MPI_Datatype type,
                                int from, int tag) {
  MPI_Request request = MPI_REQUEST_NULL;
  check_mpi(MPI_Irecv(buffer, count, type, from, channel.mpi_tag(tag), channel.base(), &request),
            "MPI_Irecv");
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
Request isend(const Channel& channel, const void* buffer, int count, MPI_Datatype type, int dest,
              int tag, SendMode mode);

// With `want_status` false the status is not translated (only an MPI_ANY_SOURCE sender is
// checked for membership) and the result carries no source or tag.
Status recv(MatchingEngine& engine, Channel& channel, void* buffer, int count, MPI_Datatype type,
            int source, int tag, bool want_status = true);
Request irecv(MatchingEngine& engine, const ChannelPtr& channel, void* buffer, int count,
              MPI_Datatype type, int source, int tag);

std::optional<Status> iprobe(MatchingEngine& engine, Channel& channel, int source, int tag);
Status probe(MatchingEngine& engine, Channel& channel, int source, int tag);

}  // namespace scomm::p2p
