// Completing many requests at once: requests that are not plain MPI operations yet (engine
// receives, creations) are advanced one by one -- each call into MPI progresses all the others --
// and the plain MPI ones are then completed by a single MPI_Waitall, which costs one progress
// pass instead of one MPI_Test per request.
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
  // Of the last wait_all: the class request i failed with, ErrorClass::kSuccess if it did not.
  std::vector<ErrorClass> failures;
};

// Completes every request, failed or not (MPI's rule for a Waitall); done[i] receives request
// i's status. When some failed, the failure of the first failed one in `requests` is thrown once
// every request has completed (the others' done[i] set, the failed ones' not, their classes in
// buffers.failures), as MPI_ERR_IN_STATUS would report.
void wait_all(MatchingEngine& engine, std::span<Request*> requests,
              std::span<std::optional<Status>> done, WaitBuffers& buffers);

}  // namespace scomm::p2p
