// A nonblocking message that is one base MPI request and nothing more: a send, or a receive MPI
// matches by itself (a named source and tag, nothing of its channel taken off MPI by the matching
// engine). Nearly every nonblocking message is one. Its status is what the receive asked for, so
// completing it needs neither the channel's map nor Request's cases, and many complete in one
// MPI_Waitall straight over their base requests.
#pragma once

#include <mpi.h>

#include <utility>

#include "scomm/p2p/channel.hpp"
#include "scomm/p2p/early_completion.hpp"
#include "scomm/p2p/request.hpp"

namespace scomm::p2p {

class PlainRequest {
 public:
  // MPI_PROC_NULL's: complete at once, with an empty status.
  PlainRequest() noexcept = default;
  // A send: complete once MPI is done with the buffer.
  explicit PlainRequest(MPI_Request send) noexcept : request_(send) {}
  // A receive from communicator rank `source` with user tag `tag`. It holds its channel, so that
  // the context of a communicator freed meanwhile is not reused while the receive may match.
  PlainRequest(MPI_Request receive, const ChannelPtr& channel, int source, int tag) noexcept
      : request_(receive), channel_(channel), source_(source), tag_(tag) {}

  // The base request, for an MPI_Waitall; finish() gives the status once MPI has completed it.
  MPI_Request mpi() const noexcept { return request_; }
  Status finish(const MPI_Status& mpi) const;
  // The status of a receive whose completion failed with `mpi` (a truncation: the message's
  // size, the receive's source and tag); nothing received for a send.
  Status described(const MPI_Status& mpi) const noexcept;
  // The status of the request, which MPI_Waitall completed with error mpi.MPI_ERROR: a
  // truncated receive's as described(), nothing received for any other failure; the error class
  // in `error`.
  Status failed(const MPI_Status& mpi) const noexcept;
  // The status MPI gave: `mpi` from the call that completed the base request, or the one kept
  // when SMPI's MPI_Testall completed it early (then kept_early()).
  const MPI_Status& base_status(const MPI_Status& mpi) const noexcept {
    const MPI_Status* kept = early_.kept();
    return kept != nullptr ? *kept : mpi;
  }
  bool kept_early() const noexcept { return early_.kept() != nullptr; }
#if defined(SCOMM_EARLY_COMPLETIONS)
  // MPI_Testall has completed and freed the base request (EarlyCompletion).
  void completed_early(const MPI_Status& mpi) noexcept {
    early_.keep(request_, mpi);
  }
#endif
  // As Request::test() and wait(): complete (and freed in MPI) once they return true.
  bool test(Status& status);
  // Whether it has completed, and its status then, without completing it: a later test or wait
  // gives the same status (MPI_Request_get_status).
  bool peek(Status& status);
  Status wait(MatchingEngine& engine);
  void cancel();
  // Lets the operation complete on its own: the engine keeps it, a receive with its channel,
  // until MPI completes it (MatchingEngine::keep_released).
  void release(MatchingEngine& engine);
  // The same operation as a general request, to complete it among requests of other kinds.
  Request to_request() &&;

 private:
  // Throws the failure MPI told in the status of the completed request (as finish() reports it).
  void check_completed(const MPI_Status& mpi) const;

  MPI_Request request_ = MPI_REQUEST_NULL;
  ChannelPtr channel_;  // a receive's
  int source_ = MPI_PROC_NULL;
  int tag_ = MPI_ANY_TAG;
  bool cancel_requested_ = false;
  [[no_unique_address]] EarlyCompletion early_;
};

}  // namespace scomm::p2p
