// A transfer of a schedule as MPI takes it, resolved once per binding by the executor
// (ScheduleRun), and the blocking MPI calls that run one: what small collectives are made of.
#pragma once

#include <mpi.h>

#include <cstdint>

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

// Whether a replay may run its transfers on `channel` by blocking MPI calls alone, past the run:
// nothing runs in the background (blocking in MPI would stall it, and without it no run holds an
// internal tag to check or hold) and, where it `receives`, MPI matches the channel by itself.
inline bool replays_in_mpi(const p2p::MatchingEngine& engine, const p2p::Channel& channel,
                           bool receives) noexcept {
  return !engine.has_background() && (!receives || p2p::mpi_matches_alone(channel));
}

// Sends `to` with `mpi_tag` on `base`: copied and let go of where it detaches and a slot is free,
// else by MPI_Send. Throws Error on failure.
inline void send_endpoint(p2p::DetachedSends& detached, const Endpoint& to, int mpi_tag,
                          MPI_Comm base) {
  if (to.detach && detached.post(to.buffer, to.bytes, to.count, to.type, to.rank, mpi_tag, base))
    return;
  p2p::check_mpi(MPI_Send(to.buffer, to.count, to.type, to.rank, mpi_tag, base), "send");
}

// Receives into `from` with `mpi_tag` on `base`: MPI_Recv's return code.
inline int receive_endpoint(const Endpoint& from, int mpi_tag, MPI_Comm base) noexcept {
  return MPI_Recv(from.buffer, from.count, from.type, from.rank, mpi_tag, base, MPI_STATUS_IGNORE);
}

}  // namespace scomm::coll
