// A message the matching engine took off MPI before a receive asked for it. With MPI-3's matched
// probes it stays inside MPI (an MPI_Message) until a receive takes it into its own buffer and
// datatype. An MPI without them (SimGrid SMPI 3.32 declares MPI_Improbe but aborts in it) has the
// message received as packed bytes as soon as MPI_Iprobe finds it, and unpacked into the
// receive's buffer later: the same matching and order, one copy more.
#pragma once

#include <mpi.h>

#include <optional>
#include <vector>

#ifndef SCOMM_MATCHED_PROBE
#if defined(SMPI_H)  // SMPI's mpi.h
#define SCOMM_MATCHED_PROBE 0
#else
#define SCOMM_MATCHED_PROBE 1
#endif
#endif

namespace scomm::p2p {

struct ProbedMessage {
  MPI_Status status;  // MPI_SOURCE is the sender's base rank, MPI_TAG the full MPI tag
#if SCOMM_MATCHED_PROBE
  MPI_Message message = MPI_MESSAGE_NULL;
#else
  std::vector<char> packed;
#endif
};

int bytes_of(const MPI_Status& status);

// The next message that has arrived on `base`, taken off MPI; none when nothing is waiting.
std::optional<ProbedMessage> take_arrived(MPI_Comm base);
// Receives `message` into (buffer, count, type), which is large enough for it. `request`
// completes the receive; it is MPI_REQUEST_NULL when the data is in place already.
void receive_probed(ProbedMessage& message, void* buffer, int count, MPI_Datatype type,
                    MPI_Request& request);
void discard_probed(ProbedMessage& message);

}  // namespace scomm::p2p
