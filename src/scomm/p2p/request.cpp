#include "scomm/p2p/request.hpp"

#include <string>
#include <utility>

#include "scomm/p2p/mpi_check.hpp"

namespace scomm::p2p {

Status Status::empty() {
  Status status;
  status.source = MPI_PROC_NULL;
  status.is_empty = true;
  return status;
}

Status Status::inactive() {
  Status status;
  status.is_empty = true;
  return status;
}

Status translate(const Channel& channel, const MPI_Status& mpi) {
  Status status;
  status.mpi = mpi;
  status.source = channel.rank_of(mpi.MPI_SOURCE);
  if (status.source == group::kUndefined)
    throw Error(ErrorClass::kRank, "received a message from base rank " +
                                       std::to_string(mpi.MPI_SOURCE) +
                                       ", who is not a member of the communicator");
  status.tag = channel.user_tag(mpi.MPI_TAG);
  return status;
}

Status message_status(const Channel& channel, const MPI_Status& mpi) noexcept {
  const int source = channel.rank_of(mpi.MPI_SOURCE);
  if (source == group::kUndefined) return Status::inactive();
  return Status::received(source, channel.user_tag(mpi.MPI_TAG), mpi);
}

Status failed_status(const std::exception_ptr& failure) noexcept {
  Status status = Status::inactive();
  try {
    std::rethrow_exception(failure);
  } catch (const ReceiveFailure& e) {
    status = e.status();
  } catch (...) {
  }
  status.error = static_cast<int>(error_class_of(failure));
  return status;
}

void rethrow_with_status(const Status& status) {
  try {
    throw;
  } catch (const Error& e) {
    if (e.error_class() != ErrorClass::kTruncate) throw;
    throw ReceiveFailure(e, status);
  }
}

void throw_receive_failure(int code, const Status& message) {
  try {
    check_mpi(code, "receive");
  } catch (...) {
    rethrow_with_status(message);
  }
  throw Error(ErrorClass::kIntern, "receive: a failure without an error code");
}

namespace {

// MPI_Test and MPI_Wait return a failed request's error (MPI-3.1 3.7.3); SimGrid SMPI 3.32
// returns MPI_SUCCESS for a truncated receive and tells it in the status alone. The status's error
// field is cleared first and read after, under every MPI (one store and one load; MPI leaves the
// field alone in these calls).
void check_completion(int rc, const MPI_Status& mpi) {
  if (rc != MPI_SUCCESS || mpi.MPI_ERROR != MPI_SUCCESS)
    check_mpi(mpi.MPI_ERROR != MPI_SUCCESS ? mpi.MPI_ERROR : rc, "receive");
}

}  // namespace

bool test_base(MPI_Request& request, MPI_Status& mpi) {
  int flag = 0;
  [[maybe_unused]] const CompletionErrorsReturned errors_returned;
  mpi.MPI_ERROR = MPI_SUCCESS;
  check_completion(MPI_Test(&request, &flag, &mpi), mpi);
  return flag != 0;
}

void wait_base(MPI_Request& request, MPI_Status& mpi) {
  [[maybe_unused]] const CompletionErrorsReturned errors_returned;
  mpi.MPI_ERROR = MPI_SUCCESS;
  check_completion(MPI_Wait(&request, &mpi), mpi);
}

std::optional<Status> cancelled_status(const MPI_Status& mpi) {
  int cancelled = 0;
  MPI_Test_cancelled(&mpi, &cancelled);
  if (!cancelled) return std::nullopt;
  Status status = Status::empty();
  status.cancelled = true;
  status.mpi = mpi;
  return status;
}

Request Request::engine(std::unique_ptr<EngineReceive> receive, ChannelPtr channel) {
  Request r;
  r.engine_ = std::move(receive);
  r.channel_ = std::move(channel);
  r.receive_ = true;
  return r;
}

Request Request::operation(std::unique_ptr<Operation> operation) {
  Request r;
  r.operation_ = std::move(operation);
  return r;
}

bool Request::test(MatchingEngine& engine, Status& status) {
  if (operation_) {
    if (!operation_->progress()) return false;
    status = Status::empty();
    return true;
  }
  if (engine_ && !engine_->matched()) {
    if (cancelled_) {
      status = Status::empty();
      status.cancelled = true;
      return true;
    }
    engine.pull();
    if (!engine_->matched()) return false;
  }
  if (engine_ && engine_->truncated()) throw_truncated();
  if (engine_ && engine_->received()) {
    status = finish(*engine_->received());
    return true;
  }
  if (!engine_ && request_ == MPI_REQUEST_NULL && !channel_) {
    status = Status::empty();
    return true;
  }
  if (const MPI_Status* kept = early_.kept()) {
    check_mpi(kept->MPI_ERROR, "receive");
    status = finish(*kept);
    return true;
  }
  return test_mpi(mpi_request(), status);
}

void Operation::finish(MatchingEngine& engine) {
  while (!progress()) engine.progress_background();
}

bool Request::wait(MatchingEngine& engine, Status& status) {
  if (operation_) {
    operation_->finish(engine);
    status = Status::empty();
    return true;
  }
  if (engine.has_background()) {
    while (!test(engine, status)) engine.progress_background();
    return true;
  }
  // A receive of the engine first waits for a message to match it: test() takes arrived ones
  // off MPI. Matched, it is waited for in MPI.
  while (engine_ && !engine_->matched() && !cancelled_)
    if (test(engine, status)) return true;
  MPI_Request* plain = plain_mpi();
  if (plain == nullptr) return test(engine, status);
  MPI_Status mpi{};
  try {
    wait_base(*plain, mpi);
  } catch (...) {
    rethrow_with_status(described(mpi));
  }
  status = finish(mpi);
  return true;
}

MPI_Request& Request::mpi_request() noexcept {
  return engine_ ? engine_->request() : request_;
}

bool Request::test_mpi(MPI_Request& request, Status& status) {
  MPI_Status mpi{};
  try {
    if (!test_base(request, mpi)) return false;
  } catch (...) {
    rethrow_with_status(described(mpi));
  }
  status = finish(mpi);
  return true;
}

Status Request::described(const MPI_Status& mpi) const noexcept {
  return receive_ ? message_status(*channel_, mpi) : Status::inactive();
}

void Request::throw_failure(int error, const MPI_Status& mpi) const {
  throw_receive_failure(error, described(mpi));
}

void Request::throw_truncated() const {
  const MPI_Status& message = engine_->truncated_message();
  throw ReceiveFailure(
      Error(ErrorClass::kTruncate, "message of " + std::to_string(bytes_of(message)) +
                                       " bytes truncated: the receive buffer is smaller"),
      described(message));
}

MPI_Request* Request::plain_mpi() noexcept {
  if (operation_ || (engine_ && (!engine_->matched() || engine_->truncated()))) return nullptr;
  MPI_Request& request = mpi_request();
  return request == MPI_REQUEST_NULL ? nullptr : &request;
}

Status Request::finish(const MPI_Status& mpi) {
  mpi_request() = MPI_REQUEST_NULL;
  if (cancel_requested_)
    if (auto status = cancelled_status(mpi)) return *status;
  return receive_ ? translate(*channel_, mpi) : Status::empty();
}

// Once, as PlainRequest::cancel.
void Request::cancel(MatchingEngine& engine) {
  if (std::exchange(cancel_requested_, true)) return;
  if (withdraw_unmatched(engine)) return;
  if (mpi_request() != MPI_REQUEST_NULL) check_mpi(MPI_Cancel(&mpi_request()), "MPI_Cancel");
}

}  // namespace scomm::p2p

namespace scomm::p2p {

void Request::release(MatchingEngine& engine) {
  if (engine_ && !engine_->matched()) {
    if (!cancelled_) engine.keep_released(std::move(engine_), channel_);
    return;
  }
  if (mpi_request() == MPI_REQUEST_NULL) return;
  if (engine_)  // a matched engine receive: its message is MPI_Imrecv's alone
    MPI_Request_free(&mpi_request());
  else  // as PlainRequest::release
    engine.keep_released(std::exchange(request_, MPI_REQUEST_NULL),
                         receive_ ? channel_ : ChannelPtr(), cancel_requested_);
}

bool Request::withdraw_unmatched(MatchingEngine& engine) noexcept {
  if (!engine_ || engine_->matched()) return false;
  engine.withdraw(*channel_, *engine_);
  cancelled_ = true;
  return true;
}

void Request::abandon(MatchingEngine& engine) noexcept {
  if (withdraw_unmatched(engine)) return;
  MPI_Request& request = mpi_request();
  if (request == MPI_REQUEST_NULL) return;
  if (!engine_) MPI_Cancel(&request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
}

}  // namespace scomm::p2p
