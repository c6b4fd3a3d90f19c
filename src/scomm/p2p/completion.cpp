#include "scomm/p2p/completion.hpp"

#include <exception>
#include <vector>

#include "scomm/p2p/mpi_check.hpp"

namespace scomm::p2p {
namespace {

// The requests of one wait_all: their results, which failed (complete too: MPI frees a failed
// request) and with what, and the failure of the first failed one.
struct Outcomes {
  std::span<std::optional<Status>> done;
  std::vector<ErrorClass>& failures;
  std::exception_ptr failure;
  std::size_t failed_first = 0;

  bool settled(std::size_t i) const { return done[i] || failures[i] != ErrorClass::kSuccess; }
  // Called from a handler of request i's failure.
  void fail(std::size_t i) {
    failures[i] = error_class_of(std::current_exception());
    if (failure && failed_first < i) return;
    failure = std::current_exception();
    failed_first = i;
  }
  // Tests request i once; true while it is pending.
  bool test(MatchingEngine& engine, Request& request, std::size_t i) {
    Status status;
    try {
      if (!request.test(engine, status)) return true;
      done[i] = status;
    } catch (...) {
      fail(i);
    }
    return false;
  }
};

// Advances the requests that MPI_Waitall cannot complete; true once none is left.
bool advance_special(MatchingEngine& engine, std::span<Request*> requests, Outcomes& outcomes) {
  bool left = false;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    if (outcomes.settled(i) || requests[i]->plain_mpi() != nullptr) continue;
    left = outcomes.test(engine, *requests[i], i) || left;
  }
  return !left;
}

// Completes every request by testing it, progressing background operations in between.
void poll_all(MatchingEngine& engine, std::span<Request*> requests, Outcomes& outcomes) {
  for (bool left = true; left;) {
    left = false;
    for (std::size_t i = 0; i < requests.size(); ++i)
      if (!outcomes.settled(i)) left = outcomes.test(engine, *requests[i], i) || left;
    if (left) engine.progress_background();
  }
}

// The plain MPI requests not yet settled, completed by one MPI_Waitall.
void wait_all_plain(std::span<Request*> requests, Outcomes& outcomes, WaitBuffers& buffers) {
  auto& batch = buffers.batch;
  auto& owner = buffers.owner;
  auto& statuses = buffers.statuses;
  batch.clear();
  owner.clear();
  for (std::size_t i = 0; i < requests.size(); ++i)
    if (!outcomes.settled(i)) {
      batch.push_back(*requests[i]->plain_mpi());
      owner.push_back(i);
    }
  statuses.resize(batch.size());
  [[maybe_unused]] const CompletionErrorsReturned errors_returned;
  const int rc = wait_all(static_cast<int>(batch.size()), batch.data(), statuses.data());
  if (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS) check_mpi(rc, "MPI_Waitall");
  for (std::size_t k = 0; k < batch.size(); ++k) {
    Request& request = *requests[owner[k]];
    try {
      if (rc == MPI_ERR_IN_STATUS && statuses[k].MPI_ERROR != MPI_SUCCESS) {
        request.forget();  // complete, failed
        check_mpi(statuses[k].MPI_ERROR, "receive");
      }
      outcomes.done[owner[k]] = request.finish(statuses[k]);
    } catch (...) {
      outcomes.fail(owner[k]);
    }
  }
}

}  // namespace

void wait_all(MatchingEngine& engine, std::span<Request*> requests,
              std::span<std::optional<Status>> done, WaitBuffers& buffers) {
  buffers.failures.assign(requests.size(), ErrorClass::kSuccess);
  Outcomes outcomes{done, buffers.failures, nullptr};
  if (engine.has_background()) {
    poll_all(engine, requests, outcomes);
  } else {
    while (!advance_special(engine, requests, outcomes)) {
    }
    wait_all_plain(requests, outcomes, buffers);
  }
  if (outcomes.failure) std::rethrow_exception(outcomes.failure);
}

}  // namespace scomm::p2p
