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
  std::vector<Status>& failures;
  std::exception_ptr failure;
  std::size_t failed_first = 0;

  bool settled(std::size_t i) const { return done[i] || failures[i].error != MPI_SUCCESS; }
  // Called from a handler of request i's failure.
  void fail(std::size_t i) {
    failures[i] = failed_status(std::current_exception());
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

// The plain MPI requests not yet settled, completed by wait_all_mpi().
void wait_all_plain(MatchingEngine& engine, std::span<Request*> requests, Outcomes& outcomes,
                    WaitBuffers& buffers) {
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
  const int rc =
      wait_all_mpi(engine, static_cast<int>(batch.size()), batch.data(), statuses.data());
  if (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS) check_mpi(rc, "MPI_Waitall");
  for (std::size_t k = 0; k < batch.size(); ++k) {
    Request& request = *requests[owner[k]];
    try {
      if (rc == MPI_ERR_IN_STATUS && statuses[k].MPI_ERROR != MPI_SUCCESS) {
        request.forget();  // complete, failed
        request.throw_failure(statuses[k].MPI_ERROR, statuses[k]);
      }
      outcomes.done[owner[k]] = request.finish(statuses[k]);
    } catch (...) {
      outcomes.fail(owner[k]);
    }
  }
}

// MPI_Test until `request` completes, background work progressed in between; MPI_Test's code.
int test_until_complete(MatchingEngine& engine, MPI_Request& request, MPI_Status& status) noexcept {
  int complete = 0, rc = MPI_SUCCESS;
  while ((rc = MPI_Test(&request, &complete, &status)) == MPI_SUCCESS && !complete)
    engine.progress_background();
  return rc;
}

}  // namespace

int wait_progressing(MatchingEngine& engine, MPI_Request& request, MPI_Status& status) noexcept {
  [[maybe_unused]] const CompletionErrorsReturned errors_returned;
  status.MPI_ERROR = MPI_SUCCESS;
  const int rc = test_until_complete(engine, request, status);
  return rc != MPI_SUCCESS ? rc : status.MPI_ERROR;
}

int wait_all_mpi(MatchingEngine& engine, int count, MPI_Request* requests,
                 MPI_Status* statuses) noexcept {
  [[maybe_unused]] const CompletionErrorsReturned errors_returned;
  if (!engine.has_background()) return wait_all(count, requests, statuses);
  const auto test_until_done = [&engine](MPI_Request& request, MPI_Status& status) {
    return test_until_complete(engine, request, status);
  };
#if defined(SMPI_H)
  // SMPI's MPI_Testall frees requests while it returns flag 0 (test_all()): one at a time there.
  return wait_each(count, requests, statuses, test_until_done);
#else
  // MPI_Testall modifies no request until it reports them all complete (MPI-3.1, 3.7.5).
  int complete = 0, rc = MPI_SUCCESS;
  while ((rc = MPI_Testall(count, requests, &complete, statuses)) == MPI_SUCCESS && !complete)
    engine.progress_background();
  if (rc == MPI_ERR_IN_STATUS) wait_pending(count, requests, statuses, test_until_done);
  return rc;
#endif
}

void wait_all(MatchingEngine& engine, std::span<Request*> requests,
              std::span<std::optional<Status>> done, WaitBuffers& buffers) {
  buffers.failures.assign(requests.size(), Status::inactive());
  Outcomes outcomes{done, buffers.failures, nullptr};
  while (!advance_special(engine, requests, outcomes)) engine.progress_background();
  wait_all_plain(engine, requests, outcomes, buffers);
  if (outcomes.failure) std::rethrow_exception(outcomes.failure);
}

}  // namespace scomm::p2p
