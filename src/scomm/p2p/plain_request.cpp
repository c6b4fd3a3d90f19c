#include "scomm/p2p/plain_request.hpp"

#include <utility>

#include "scomm/p2p/mpi_check.hpp"

namespace scomm::p2p {

Status PlainRequest::finish(const MPI_Status& given) const {
  const MPI_Status& mpi = base_status(given);
  if (kept_early()) check_completed(mpi);
  if (cancel_requested_)
    if (auto status = cancelled_status(mpi)) return *status;
  return channel_ ? Status::received(source_, tag_, mpi) : Status::empty();
}

Status PlainRequest::described(const MPI_Status& mpi) const noexcept {
  return channel_ ? Status::received(source_, tag_, mpi) : Status::inactive();
}

Status PlainRequest::failed(const MPI_Status& mpi) const noexcept {
  const ErrorClass error_class = error_class_of_mpi(mpi.MPI_ERROR);
  Status status = error_class == ErrorClass::kTruncate ? described(mpi) : Status::inactive();
  status.error = static_cast<int>(error_class);
  return status;
}

void PlainRequest::check_completed(const MPI_Status& mpi) const {
  try {
    check_mpi(mpi.MPI_ERROR, "receive");
  } catch (...) {
    rethrow_with_status(described(mpi));
  }
}

bool PlainRequest::test(Status& status) {
  MPI_Status mpi{};
  try {
    if (!test_base(request_, mpi)) return false;
  } catch (...) {
    rethrow_with_status(described(mpi));
  }
  status = finish(mpi);
  return true;
}

bool PlainRequest::peek(Status& status) {
  if (request_ != MPI_REQUEST_NULL) {
    MPI_Status mpi{};
    mpi.MPI_ERROR = MPI_SUCCESS;
    int flag = 0;
    [[maybe_unused]] const CompletionErrorsReturned errors_returned;
#if defined(SCOMM_EARLY_COMPLETIONS)
    // SMPI's MPI_Request_get_status neither progresses nor tells a pending receive from a
    // complete one: a copy of the base request is tested, and what completed it kept.
    MPI_Request copy = request_;
    const int rc = MPI_Test(&copy, &flag, &mpi);
    // MPICH's MPI_Test of a receive that failed (truncated) returns the error with flag 0, the
    // request freed: complete all the same.
    if (flag == 0 && (rc == MPI_SUCCESS || copy != MPI_REQUEST_NULL)) {
      check_mpi(rc, "MPI_Test");
      return false;
    }
    if (rc != MPI_SUCCESS && mpi.MPI_ERROR == MPI_SUCCESS) mpi.MPI_ERROR = rc;
    completed_early(mpi);
#else
    check_mpi(MPI_Request_get_status(request_, &flag, &mpi), "MPI_Request_get_status");
    if (flag == 0) return false;
    check_completed(mpi);
#endif
    status = finish(mpi);
    return true;
  }
  status = finish(MPI_Status{});  // MPI_PROC_NULL's, or the status kept
  return true;
}

Status PlainRequest::wait(MatchingEngine& engine) {
  Status status;
  if (engine.has_background()) {
    while (!test(status)) engine.progress_background();
    return status;
  }
  MPI_Status mpi{};
  try {
    wait_base(request_, mpi);
  } catch (...) {
    rethrow_with_status(described(mpi));
  }
  return finish(mpi);
}

// A second cancel changes nothing, as MPI's rule has it, and goes no further: Open MPI 4.1's
// second MPI_Cancel of a receive crashes in its ob1 layer.
void PlainRequest::cancel() {
  if (std::exchange(cancel_requested_, true)) return;
  if (request_ != MPI_REQUEST_NULL) check_mpi(MPI_Cancel(&request_), "MPI_Cancel");
}

void PlainRequest::release(MatchingEngine& engine) {
  if (request_ != MPI_REQUEST_NULL)
    engine.keep_released(std::exchange(request_, MPI_REQUEST_NULL), std::move(channel_),
                         cancel_requested_);
}

Request PlainRequest::to_request() && {
  const bool receive = channel_ != nullptr;
  Request request = Request::mpi(std::exchange(request_, MPI_REQUEST_NULL), std::move(channel_),
                                 receive, source_, cancel_requested_);
#if defined(SCOMM_EARLY_COMPLETIONS)
  if (const MPI_Status* kept = early_.kept()) request.completed_early(*kept);
#endif
  return request;
}

}  // namespace scomm::p2p
