// Nonblocking operations. A request is one of: a base MPI request (send, or a receive posted on
// MPI directly), a receive waiting in the matching engine, or a longer operation (idup, isplit)
// that advances when tested. A receive holds its channel, so a communicator freed meanwhile
// keeps its context until the receive completes (a pending send needs no context here).
#pragma once

#include <mpi.h>

#include <exception>
#include <memory>
#include <optional>
#include <utility>

#include "scomm/base/error.hpp"
#include "scomm/p2p/channel.hpp"
#include "scomm/p2p/early_completion.hpp"
#include "scomm/p2p/matching_engine.hpp"

namespace scomm::p2p {

struct Status {
  int source = MPI_ANY_SOURCE;  // communicator rank
  int tag = MPI_ANY_TAG;        // user tag
  int error = MPI_SUCCESS;
  bool cancelled = false;
  // What MPI reports for MPI_PROC_NULL, sends and inactive requests: no MPI status behind it
  // (made only when the caller asks for a status, as MPI_Status_set_* calls cost).
  bool is_empty = false;
  MPI_Status mpi{};  // for MPI_Get_count

  // What a receive from MPI_PROC_NULL reports: MPI_PROC_NULL, MPI_ANY_TAG, nothing received.
  static Status empty();
  // MPI's empty status, of SCOMM_REQUEST_NULL and of no active request: MPI_ANY_SOURCE,
  // MPI_ANY_TAG, nothing received.
  static Status inactive();
  // A message received from communicator rank `source` with user tag `tag`.
  static Status received(int source, int tag, const MPI_Status& mpi) noexcept {
    Status status;
    status.source = source;
    status.tag = tag;
    status.mpi = mpi;
    return status;
  }
};

// The status of message `mpi` on `channel` (that of a failed receive, whose source and tag MPI
// sets all the same): nothing received when its source is no member.
Status message_status(const Channel& channel, const MPI_Status& mpi) noexcept;

// A receive that failed once a message had matched it (truncation). MPI tells such a receive's
// caller the message's source, tag and size in its status; `status` carries them.
class ReceiveFailure : public Error {
 public:
  ReceiveFailure(const Error& error, const Status& status) : Error(error), status_(status) {}
  const Status& status() const noexcept { return status_; }

 private:
  Status status_;
};

// The status of a request that failed with `failure`, the error class in its `error`: the
// message's for a ReceiveFailure, nothing received for any other.
Status failed_status(const std::exception_ptr& failure) noexcept;
// check_mpi() of a receive whose failed completion gave `message` as its status: a truncation is
// thrown as a ReceiveFailure carrying it.
[[noreturn]] void throw_receive_failure(int code, const Status& message);
// In a handler of a receive's failure, the message's status known: rethrows the failure, a
// truncation as a ReceiveFailure carrying `status`.
[[noreturn]] void rethrow_with_status(const Status& status);

// MPI_Test and MPI_Wait of a base MPI request; a failure (which MPI completes and frees the
// request for) is thrown as scomm::Error. test_base() is true, and `mpi` set, once complete.
bool test_base(MPI_Request& request, MPI_Status& mpi);
void wait_base(MPI_Request& request, MPI_Status& mpi);
// The status of a completed request whose cancellation was asked for, if it was cancelled.
std::optional<Status> cancelled_status(const MPI_Status& mpi);

// A longer nonblocking operation, advanced by progress() until it returns true. An operation
// that registers itself as background (MatchingEngine::add_background) must not throw from
// progress() when called there a second time after a failure: it keeps the failure and throws it
// when its own request is completed.
class Operation {
 public:
  virtual ~Operation() = default;
  virtual bool progress() = 0;
  // Runs to the end, advancing the engine's other background operations meanwhile. An
  // operation that may block inside MPI when nothing else needs progress overrides it.
  virtual void finish(MatchingEngine& engine);
};

class Request {
 public:
  // MPI_PROC_NULL: complete at once with an empty status.
  static Request completed();
  // A send (no channel), or a receive posted on MPI directly from `source` (a base rank or
  // MPI_ANY_SOURCE); `cancel_requested`: MPI_Cancel was called on it already.
  static Request mpi(MPI_Request request, ChannelPtr channel, bool receive,
                     int source = MPI_ANY_SOURCE, bool cancel_requested = false);
  static Request engine(std::unique_ptr<EngineReceive> receive, ChannelPtr channel);
  static Request operation(std::unique_ptr<Operation> operation);

  // Advances the request; true (and `status` set) once it has completed. Throws scomm::Error for
  // a failed operation (truncation, a message from a non-member, a failed creation).
  bool test(MatchingEngine& engine, Status& status);
  // As test(), but returns only once the request has completed (true): an operation runs to its
  // end (Operation::finish), an MPI operation is waited for in MPI, and a receive of the engine
  // takes arrived messages until one matches it; while background operations need progress,
  // polls them and the request until it has completed.
  bool wait(MatchingEngine& engine, Status& status);
  void cancel(MatchingEngine& engine);
  // Lets the operation complete on its own, kept by the engine until MPI completes it (as
  // PlainRequest::release); an unmatched engine receive stays posted there until it matches.
  void release(MatchingEngine& engine);
  // Lets go of a receive whose buffer goes with it (a failed collective's): an unmatched engine
  // receive is withdrawn, a matched one waited for (its message is on its way), a direct one
  // cancelled and waited for.
  void abandon(MatchingEngine& engine) noexcept;
  const ChannelPtr& channel() const noexcept { return channel_; }

  // The base MPI request when the request is a plain MPI operation now (a send, a direct
  // receive, a matched engine receive), so that many can be completed by one MPI_Waitall.
  MPI_Request* plain_mpi() noexcept;
  // Completes the request from the status MPI_Waitall gave for plain_mpi().
  Status finish(const MPI_Status& mpi);
  // Marks a plain MPI request completed by MPI_Waitall with an error.
  void forget() noexcept { mpi_request() = MPI_REQUEST_NULL; }
  // Throws the failure `error` MPI_Waitall told for plain_mpi(), whose status it gave as `mpi`.
  [[noreturn]] void throw_failure(int error, const MPI_Status& mpi) const;
#if defined(SCOMM_EARLY_COMPLETIONS)
  // MPI_Testall has completed and freed the base request (EarlyCompletion).
  void completed_early(const MPI_Status& mpi) noexcept {
    early_.keep(mpi_request(), mpi);
  }
#endif

 private:
  // The base MPI request: the engine receive's once matched, else request_.
  MPI_Request& mpi_request() noexcept;
  // Withdraws an engine receive no message has matched yet (it completes cancelled); false for
  // any other request.
  bool withdraw_unmatched(MatchingEngine& engine) noexcept;
  bool test_mpi(MPI_Request& request, Status& status);
  // The status of a receive's message `mpi` (that of a failed MPI completion call, or of a
  // message that did not fit): its source and tag in the communicator; nothing received for a
  // send, or for a source that is no member.
  Status described(const MPI_Status& mpi) const noexcept;
  [[noreturn]] void throw_truncated() const;

  ChannelPtr channel_;
  MPI_Request request_ = MPI_REQUEST_NULL;
  bool receive_ = false;
  bool any_source_ = false;
  bool cancelled_ = false;
  bool cancel_requested_ = false;
  std::unique_ptr<EngineReceive> engine_;
  std::unique_ptr<Operation> operation_;
  [[no_unique_address]] EarlyCompletion early_;
};

inline Request Request::completed() {
  return Request();
}

inline Request Request::mpi(MPI_Request request, ChannelPtr channel, bool receive, int source,
                            bool cancel_requested) {
  Request r;
  r.request_ = request;
  r.channel_ = std::move(channel);
  r.receive_ = receive;
  r.any_source_ = source == MPI_ANY_SOURCE;
  r.cancel_requested_ = cancel_requested;
  return r;
}

// The receive status in communicator terms; throws Error(kRank) when the sender is not a member
// of the channel (a late message of a freed communicator whose context was reused).
Status translate(const Channel& channel, const MPI_Status& mpi);

}  // namespace scomm::p2p
