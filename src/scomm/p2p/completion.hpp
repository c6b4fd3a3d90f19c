// Completing many requests at once: requests that are not plain MPI operations yet (engine
// receives, creations) are advanced one by one -- each call into MPI progresses all the others --
// and the plain MPI ones are then completed by a single MPI_Waitall (or rounds of MPI_Testall
// while background work needs progress), which costs one progress pass instead of one MPI_Test
// per request.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "scomm/base/error.hpp"
#include "scomm/p2p/request.hpp"

namespace scomm::p2p {

// Reused between calls, so completing requests allocates nothing once warm.
struct WaitBuffers {
  std::vector<MPI_Request> batch;
  std::vector<std::size_t> owner;
  std::vector<MPI_Status> statuses;
  std::vector<int> indices;  // MPI_Testsome's
  // Of the last wait_all: the status of request i if it failed (its error class in `error`),
  // an inactive one (error MPI_SUCCESS) if it did not.
  std::vector<Status> failures;
};

// MPI_Wait's result while the engine has background work, which a process blocked inside MPI
// would stall: MPI_Test until the request completes, progressing that work in between. A failure
// told in the status alone (SMPI's truncation) is returned as the call's.
int wait_progressing(MatchingEngine& engine, MPI_Request& request, MPI_Status& status) noexcept;
// The same for a request whose start returned `started`: that failure, or the wait's.
inline int wait_started_progressing(MatchingEngine& engine, int started, MPI_Request& request,
                                    MPI_Status& status) noexcept {
  return started != MPI_SUCCESS ? started : wait_progressing(engine, request, status);
}

// MPI_Waitall's result over plain MPI requests. While the engine has background work, which a
// process blocked inside MPI would stall, MPI_Testall over all of them until they are complete,
// progressing that work in between (one progress pass of MPI per round, not one MPI_Test each).
// `statuses`: one per request, not MPI_STATUSES_IGNORE.
int wait_all_mpi(MatchingEngine& engine, int count, MPI_Request* requests,
                 MPI_Status* statuses) noexcept;

// Completes every request, failed or not (MPI's rule for a Waitall); done[i] receives request
// i's status. When some failed, the failure of the first failed one in `requests` is thrown once
// every request has completed (the others' done[i] set, the failed ones' not, their statuses in
// buffers.failures), as MPI_ERR_IN_STATUS would report.
void wait_all(MatchingEngine& engine, std::span<Request*> requests,
              std::span<std::optional<Status>> done, WaitBuffers& buffers);

}  // namespace scomm::p2p
