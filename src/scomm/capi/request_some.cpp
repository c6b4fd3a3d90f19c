// SCOMM_Waitany, SCOMM_Testany, SCOMM_Waitsome, SCOMM_Testsome: completion of any or some of many
// requests. Each looks at the active requests in the order of the array (as Open MPI and MPICH
// do), testing each with MPI_Test or the matching engine, so that requests of every kind (plain,
// matching engine, collectives, creations) mix; the *some calls leave requests that MPI
// completes alone to one MPI_Waitsome or MPI_Testsome. Every handle is checked before anything
// changes. A failed request is complete (and freed) too: the *any calls give its index, the *some
// calls list it with SCOMM_ERROR in its status set to the error class; the first failure is
// reported through its communicator's error handler once every request has been looked at.
#include <exception>

#include "scomm.h"
#include "scomm/capi/context.hpp"
#include "scomm/capi/request_completion.hpp"
#include "scomm/p2p/completion.hpp"
#include "scomm/p2p/mpi_check.hpp"

namespace {

#if defined(SMPI_H)
constexpr bool kOnSmpi = true;
#else
constexpr bool kOnSmpi = false;
#endif

using namespace scomm::capi;
namespace p2p = scomm::p2p;

// Lists in buffers.batch the active requests' MPI requests (request buffers.owner[k] of the
// array) when every one is a live plain request with one, given once, and MPI can be left to
// complete them (not on SMPI, whose MPI_Waitsome waits in its waitany, which crashes at random in
// long programs): one look at each handle. False otherwise, when the general path's checks tell
// what is wrong or it completes the mix.
bool batch_of_plain(int count, const SCOMM_Request requests[], p2p::WaitBuffers& buffers) {
  if (kOnSmpi) return false;
  buffers.batch.clear();
  buffers.owner.clear();
  const std::uint64_t lookup = ++context().array_lookups;  // as check_live marks
  for (int i = 0; i < count; ++i) {
    if (requests[i] == SCOMM_REQUEST_NULL) continue;
    const PlainRequestEntry* plain = mark_plain(requests[i], lookup);
    if (plain == nullptr) return false;
    const MPI_Request mpi = plain->request.mpi();
    if (mpi == MPI_REQUEST_NULL) return false;  // MPI_PROC_NULL's, or completed early
    buffers.batch.push_back(mpi);
    buffers.owner.push_back(static_cast<std::size_t>(i));
  }
  return true;
}

// What SCOMM_Waitsome or SCOMM_Testsome finds active once every handle is checked (live, none
// given twice): nothing, plain requests alone (their MPI requests in the scratch batch), or a mix.
enum class Active { kNone, kPlain, kMixed };

Active active_requests(int count, const SCOMM_Request requests[]) {
  p2p::WaitBuffers& buffers = context().wait_scratch.buffers;
  if (batch_of_plain(count, requests, buffers))
    return buffers.batch.empty() ? Active::kNone : Active::kPlain;
  return check_live(count, requests) < count ? Active::kMixed : Active::kNone;
}

// Looks at the active requests once, in order from the first active one, until one has
// completed: reports it in *status, frees it and leaves its index in *index; MPI_UNDEFINED there
// when none has. A failed request's index is in *index when its failure is thrown. (One MPI_Waitany
// over plain requests, tried, cost more where they complete in order: Open MPI's sets up a wait on
// every one when the first is not done.)
void complete_any(int first_active, int count, SCOMM_Request requests[], int* index,
                  SCOMM_Status* status, SCOMM_Comm& failing) {
  for (int i = first_active; i < count; ++i) {
    if (requests[i] == SCOMM_REQUEST_NULL) continue;
    *index = i;
    if (complete_if_done(&requests[i], status, failing)) return;
  }
  *index = MPI_UNDEFINED;
}

// One pass of SCOMM_Waitsome or SCOMM_Testsome: the requests it has completed, their indices in
// indices[0, *outcount) and their statuses at the same places of `statuses`, and the first that
// failed, whose failure is thrown once the pass is over.
class SomePass {
 public:
  SomePass(int* outcount, int indices[], SCOMM_Status statuses[])
      : outcount_(outcount), indices_(indices), statuses_(statuses) {
    *outcount_ = 0;
  }
  SCOMM_Status* next_status() const { return status_at(statuses_, *outcount_); }
  void completed(int i) { indices_[(*outcount_)++] = i; }
  // Request i, of communicator `comm`, has failed (called from the failure's handler).
  void failed(int i, SCOMM_Comm comm) {
    write_failure(std::current_exception(), next_status());
    completed(i);
    first_.note(std::current_exception(), comm);
  }
  // Request i has completed in MPI, failed with `error` (MPI_SUCCESS when not), its status
  // written (finish_plain).
  void completed_in_mpi(int i, int error, SCOMM_Comm comm) {
    completed(i);
    first_.note_mpi(error, "receive", comm);
  }
  void end(SCOMM_Comm& failing) const { first_.rethrow(failing); }

 private:
  int* outcount_;
  int* indices_;
  SCOMM_Status* statuses_;
  FirstFailure first_;
};

// Tests request i by itself. A failure that freed nothing (a handle given twice, dead once its
// first copy completed) is thrown at once.
void test_one(SCOMM_Request requests[], int i, SomePass& pass) {
  SCOMM_Comm comm = SCOMM_COMM_WORLD;
  try {
    if (complete_if_done(&requests[i], pass.next_status(), comm)) pass.completed(i);
  } catch (...) {
    if (requests[i] != SCOMM_REQUEST_NULL) throw;
    pass.failed(i, comm);
  }
}

// Reports and frees plain request i, which MPI_Waitsome or MPI_Testsome returning `rc` completed
// with status `mpi`.
void finish_tested(SCOMM_Request requests[], int i, int rc, const MPI_Status& mpi, SomePass& pass) {
  int error = MPI_SUCCESS;
  SCOMM_Comm comm = SCOMM_COMM_WORLD;
  finish_plain(&requests[i], mpi, rc, pass.next_status(), error, comm);
  pass.completed_in_mpi(i, error, comm);
}

// The plain requests of buffers.batch (request buffers.owner[k] of the array), completed by one
// MPI_Waitsome (`wait`) or MPI_Testsome: one progress pass of MPI for all of them, where one
// MPI_Test each would make one each.
void complete_batch(SCOMM_Request requests[], p2p::WaitBuffers& buffers, bool wait,
                    SomePass& pass) {
  const int n = static_cast<int>(buffers.batch.size());
  buffers.statuses.resize(buffers.batch.size());
  buffers.indices.resize(buffers.batch.size());
  int done = 0, rc = MPI_SUCCESS;
  {
    [[maybe_unused]] const p2p::CompletionErrorsReturned errors_returned;
    rc = (wait ? MPI_Waitsome : MPI_Testsome)(n, buffers.batch.data(), &done,
                                              buffers.indices.data(), buffers.statuses.data());
  }
  if (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS) p2p::check_mpi(rc, "MPI_Waitsome");
  for (int k = 0; k < done && done != MPI_UNDEFINED; ++k) {
    const auto at = static_cast<std::size_t>(buffers.indices[static_cast<std::size_t>(k)]);
    finish_tested(requests, static_cast<int>(buffers.owner[at]), rc,
                  buffers.statuses[static_cast<std::size_t>(k)], pass);
  }
}

// Completes, reports and frees the active requests that are done: plain ones by one
// MPI_Waitsome (`wait`, unless background work needs progress: blocking inside MPI would stall
// it) or MPI_Testsome, a mix by looking at each once in the array's order (then `wait` waits for
// nothing).
void complete_some(int count, SCOMM_Request requests[], Active active, bool wait, SomePass& pass) {
  if (active == Active::kPlain) {
    complete_batch(requests, context().wait_scratch.buffers,
                   wait && !runtime().engine().has_background(), pass);
    return;
  }
  for (int i = 0; i < count; ++i)
    if (requests[i] != SCOMM_REQUEST_NULL) test_one(requests, i, pass);
}

void check_some_arguments(int count, const SCOMM_Request requests[], const int* outcount,
                          const int* indices) {
  check_array(count, requests);
  require(outcount, "outcount");
  if (count > 0) require(indices, "array_of_indices");
}

}  // namespace

extern "C" {

int SCOMM_Waitany(int count, SCOMM_Request requests[], int* index, SCOMM_Status* status) {
  const KeptErrorField kept(status);
  return on_requests("SCOMM_Waitany", [&](SCOMM_Comm& failing) {
    check_array(count, requests);
    require(index, "index");
    const StartedRequests started(count, requests);
    const int first_active = check_live(count, requests);
    *index = MPI_UNDEFINED;
    if (first_active == count) {
      write_status(p2p::Status::inactive(), status);
      return;
    }
    for (;;) {
      complete_any(first_active, count, requests, index, status, failing);
      if (*index != MPI_UNDEFINED) return;
      runtime().engine().progress_background();
    }
  });
}

int SCOMM_Testany(int count, SCOMM_Request requests[], int* index, int* flag,
                  SCOMM_Status* status) {
  const KeptErrorField kept(status);
  return on_requests("SCOMM_Testany", [&](SCOMM_Comm& failing) {
    check_array(count, requests);
    require(index, "index");
    require(flag, "flag");
    const StartedRequests started(count, requests);
    const int first_active = check_live(count, requests);
    *index = MPI_UNDEFINED;
    *flag = 1;
    if (first_active == count) {
      write_status(p2p::Status::inactive(), status);
      return;
    }
    runtime().engine().progress_background();
    complete_any(first_active, count, requests, index, status, failing);
    *flag = *index != MPI_UNDEFINED ? 1 : 0;
  });
}

int SCOMM_Waitsome(int incount, SCOMM_Request requests[], int* outcount, int indices[],
                   SCOMM_Status statuses[]) {
  return on_requests("SCOMM_Waitsome", [&](SCOMM_Comm& failing) {
    check_some_arguments(incount, requests, outcount, indices);
    const StartedRequests started(incount, requests);
    const Active active = active_requests(incount, requests);
    *outcount = MPI_UNDEFINED;
    if (active == Active::kNone) return;
    for (;;) {
      SomePass pass(outcount, indices, statuses);
      complete_some(incount, requests, active, true, pass);
      pass.end(failing);
      if (*outcount > 0) return;
      runtime().engine().progress_background();
    }
  });
}

int SCOMM_Testsome(int incount, SCOMM_Request requests[], int* outcount, int indices[],
                   SCOMM_Status statuses[]) {
  return on_requests("SCOMM_Testsome", [&](SCOMM_Comm& failing) {
    check_some_arguments(incount, requests, outcount, indices);
    const StartedRequests started(incount, requests);
    const Active active = active_requests(incount, requests);
    *outcount = MPI_UNDEFINED;
    if (active == Active::kNone) return;
    runtime().engine().progress_background();
    SomePass pass(outcount, indices, statuses);
    complete_some(incount, requests, active, false, pass);
    pass.end(failing);
  });
}

}  // extern "C"
