#include "scomm/p2p/completion.hpp"

#include <exception>
#include <vector>

#include "scomm/p2p/mpi_check.hpp"

namespace scomm::p2p {
namespace {

// Advances the requests that MPI_Waitall cannot complete; true once none is left.
bool advance_special(MatchingEngine& engine, std::span<Request*> requests,
                     std::span<std::optional<Status>> done) {
  bool left = false;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    if (done[i] || requests[i]->plain_mpi() != nullptr) continue;
    Status status;
    if (requests[i]->test(engine, status))
      done[i] = status;
    else
      left = true;
  }
  return !left;
}

// Completes every request by testing it, progressing background operations in between; the
// first failure is thrown once every request has completed.
void poll_all(MatchingEngine& engine, std::span<Request*> requests,
              std::span<std::optional<Status>> done) {
  std::vector<bool> failed(requests.size());
  std::exception_ptr failure;
  for (bool left = true; left;) {
    left = false;
    for (std::size_t i = 0; i < requests.size(); ++i) {
      if (done[i] || failed[i]) continue;
      Status status;
      try {
        if (requests[i]->test(engine, status))
          done[i] = status;
        else
          left = true;
      } catch (...) {
        failed[i] = true;
        if (!failure) failure = std::current_exception();
      }
    }
    if (left) engine.progress_background();
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace

void wait_all(MatchingEngine& engine, std::span<Request*> requests,
              std::span<std::optional<Status>> done, WaitBuffers& buffers) {
  if (engine.has_background()) return poll_all(engine, requests, done);
  while (!advance_special(engine, requests, done)) {
  }
  auto& batch = buffers.batch;
  auto& owner = buffers.owner;
  auto& statuses = buffers.statuses;
  batch.clear();
  owner.clear();
  for (std::size_t i = 0; i < requests.size(); ++i)
    if (!done[i]) {
      batch.push_back(*requests[i]->plain_mpi());
      owner.push_back(i);
    }
  statuses.resize(batch.size());
  [[maybe_unused]] const CompletionErrorsReturned errors_returned;
  const int rc = wait_all(static_cast<int>(batch.size()), batch.data(), statuses.data());
  if (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS) check_mpi(rc, "MPI_Waitall");
  std::exception_ptr failure;
  for (std::size_t k = 0; k < batch.size(); ++k) {
    Request& request = *requests[owner[k]];
    try {
      if (rc == MPI_ERR_IN_STATUS && statuses[k].MPI_ERROR != MPI_SUCCESS) {
        request.forget();  // complete, failed
        check_mpi(statuses[k].MPI_ERROR, "receive");
      }
      done[owner[k]] = request.finish(statuses[k]);
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace scomm::p2p
