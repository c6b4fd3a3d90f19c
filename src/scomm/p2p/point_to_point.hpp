// Sends, receives and probes on a channel. Ranks are communicator ranks (or MPI_PROC_NULL,
// MPI_ANY_SOURCE), tags user tags (or MPI_ANY_TAG); arguments are checked by check_* first.
#pragma once

#include <mpi.h>

#include <memory>
#include <optional>

#include "scomm/p2p/request.hpp"

namespace scomm::p2p {

enum class SendMode { kStandard, kSynchronous };

// Throw Error(kRank / kTag / kCount / kType / kBuffer) with the offending value.
void check_peer(const Channel& channel, int rank, bool any_source_allowed);
void check_tag(int tag, int tag_ub, bool any_tag_allowed);
void check_buffer(const void* buffer, int count, MPI_Datatype type);

void send(const Channel& channel, const void* buffer, int count, MPI_Datatype type, int dest,
          int tag, SendMode mode);
Request isend(const std::shared_ptr<Channel>& channel, const void* buffer, int count,
              MPI_Datatype type, int dest, int tag, SendMode mode);

// With `want_status` false the status is not translated (only an MPI_ANY_SOURCE sender is
// checked for membership) and the result carries no source or tag.
Status recv(MatchingEngine& engine, Channel& channel, void* buffer, int count, MPI_Datatype type,
            int source, int tag, bool want_status = true);
Request irecv(MatchingEngine& engine, const std::shared_ptr<Channel>& channel, void* buffer,
              int count, MPI_Datatype type, int source, int tag);

std::optional<Status> iprobe(MatchingEngine& engine, Channel& channel, int source, int tag);
Status probe(MatchingEngine& engine, Channel& channel, int source, int tag);

}  // namespace scomm::p2p
