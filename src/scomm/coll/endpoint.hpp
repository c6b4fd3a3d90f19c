// A transfer of a schedule as MPI takes it, resolved once per binding by the executor
// (ScheduleRun), and the blocking MPI calls that run one: what small collectives are made of.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "scomm/p2p/completion.hpp"
#include "scomm/p2p/detached_sends.hpp"
#include "scomm/p2p/matching_engine.hpp"
#include "scomm/p2p/mpi_check.hpp"
#include "scomm/p2p/point_to_point.hpp"

namespace scomm::coll {

struct Endpoint {
  void* buffer;
  int count;  // checked against INT_MAX when resolved
  MPI_Datatype type;
  int rank;     // in the base communicator
  bool detach;  // a send the engine copies and lets go of (ScheduleRun::detaches)
  std::int64_t bytes;
};

// A schedule that is one transfer on the caller's own buffer and nothing else (either rank of a
// two-rank bcast, the leaves of trees): a replay runs it alone (coll/replay.hpp).
struct SingleTransfer {
  Endpoint endpoint;
  bool send;
};

// Whether a replay may run its transfers on `channel` by MPI calls alone, past the run: blocking
// ones where nothing runs in the background, each posted and polled until complete where
// receives wait in the engine (blocking in MPI would stall them). Not while a background
// operation runs (it may hold the internal tag, which no run checks or holds then); not where it
// `receives` and MPI does not match the channel by itself; and, but for a `single` transfer, not
// while a receive waits in the engine on the channel's base, where a poll between two rounds
// would take a later round's message off MPI before its receive is posted (a single transfer
// posts its one receive before any poll, and MPI matches a posted receive first).
inline bool replays_in_mpi(const p2p::MatchingEngine& engine, const p2p::Channel& channel,
                           bool receives, bool single) noexcept {
  if (engine.has_background() &&
      (engine.has_operations() || (!single && engine.waits_on_base_of(channel))))
    return false;
  return !receives || p2p::mpi_matches_alone(channel);
}

// Sends `to` with `mpi_tag` on `base`: copied and let go of where it detaches and a slot is free,
// else by MPI_Send (posted and polled while receives wait in the engine). Throws Error on failure.
inline void send_endpoint(p2p::MatchingEngine& engine, const Endpoint& to, int mpi_tag,
                          MPI_Comm base) {
  if (to.detach &&
      engine.detached_sends().post(to.buffer, to.bytes, to.count, to.type, to.rank, mpi_tag, base))
    return;
  if (!engine.has_background()) [[likely]] {
    p2p::check_mpi(MPI_Send(to.buffer, to.count, to.type, to.rank, mpi_tag, base), "send");
    return;
  }
  MPI_Request request = MPI_REQUEST_NULL;
  const int rc = MPI_Isend(to.buffer, to.count, to.type, to.rank, mpi_tag, base, &request);
  MPI_Status status;
  p2p::check_mpi(p2p::wait_started_progressing(engine, rc, request, status), "send");
}

// Receives into `from` with `mpi_tag` on `base` by MPI_Recv (posted and polled while receives
// wait in the engine): the return code.
inline int receive_endpoint(p2p::MatchingEngine& engine, const Endpoint& from, int mpi_tag,
                            MPI_Comm base) noexcept {
  if (!engine.has_background()) [[likely]]
    return MPI_Recv(from.buffer, from.count, from.type, from.rank, mpi_tag, base,
                    MPI_STATUS_IGNORE);
  MPI_Request request = MPI_REQUEST_NULL;
  const int rc = MPI_Irecv(from.buffer, from.count, from.type, from.rank, mpi_tag, base, &request);
  MPI_Status status;
  return p2p::wait_started_progressing(engine, rc, request, status);
}

}  // namespace scomm::coll
