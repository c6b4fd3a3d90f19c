// SCOMM_Wait, SCOMM_Test, SCOMM_Waitall, SCOMM_Testall, SCOMM_Cancel, SCOMM_Request_free
// (capi/request_some.cpp has the calls that complete any or some of many requests). A request's
// failure is reported through its communicator's error handler, and the request is freed all
// the same (MPI's rule).
#include <algorithm>
#include <exception>
#include <string>
#include <vector>

#include "scomm.h"
#include "scomm/capi/context.hpp"
#include "scomm/capi/request_completion.hpp"
#include "scomm/p2p/completion.hpp"
#include "scomm/p2p/mpi_check.hpp"

namespace scomm::capi {

void complete_creation(RequestEntry& entry);

}  // namespace scomm::capi

namespace {

using namespace scomm::capi;
using scomm::Error;
using scomm::ErrorClass;
namespace p2p = scomm::p2p;

using PlainTable = HandleTable<PlainRequestEntry>;

[[noreturn]] void throw_dead_request(SCOMM_Request handle) {
  throw Error(ErrorClass::kRequest, "request handle " + std::to_string(handle) +
                                        " is not live (completed, freed or never created)");
}

RequestEntry& request_entry(SCOMM_Request handle) {
  RequestEntry* entry = context().requests.find(handle);
  if (entry == nullptr) throw_dead_request(handle);
  return *entry;
}

// SCOMM_REQUEST_NULL is no plain request: has_upper_kind alone tells a plain handle.
static_assert(!PlainTable::has_upper_kind(SCOMM_REQUEST_NULL));

// The plain request behind a handle of an upper kind (PlainTable::has_upper_kind).
PlainRequestEntry& plain_entry(SCOMM_Request handle) {
  PlainRequestEntry* entry = context().plain_requests.find(handle);
  if (entry == nullptr) throw_dead_request(handle);
  return *entry;
}

// The look-up mark of live request `handle` (check_live), or Error(kRequest).
std::uint64_t& listed_in(SCOMM_Request handle) {
  return PlainTable::has_upper_kind(handle) ? plain_entry(handle).listed_in
                                            : request_entry(handle).listed_in;
}

[[noreturn]] void throw_listed_twice(SCOMM_Request handle) {
  throw Error(ErrorClass::kRequest,
              "request handle " + std::to_string(handle) + " is given twice in the array");
}

// Advances general request `handle` (or SCOMM_REQUEST_NULL) without freeing it; true once it has
// completed or failed. With `block`, it returns once so (p2p::Request::wait). A failure is kept
// in the entry until retire() reports it, its status written as for a completed request's.
bool progress(SCOMM_Request handle, SCOMM_Comm& failing, bool block = false) {
  if (handle == SCOMM_REQUEST_NULL) return true;
  RequestEntry& entry = request_entry(handle);
  if (entry.settled()) return true;
  failing = entry.comm;
  p2p::Status status;
  p2p::MatchingEngine& engine = runtime().engine();
  try {
    if (!(block ? entry.request.wait(engine, status) : entry.request.test(engine, status)))
      return false;
  } catch (...) {
    entry.failure = std::current_exception();
    return true;
  }
  if (entry.creation != nullptr) complete_creation(entry);
  entry.completed = status;
  return true;
}

// Completes plain request *handle, reports it and frees it; a failed one is freed too. With
// `block` false it only tests, and returns false (changing nothing) when it is not complete.
bool complete_plain(SCOMM_Request* handle, SCOMM_Status* status, SCOMM_Comm& failing, bool block) {
  PlainRequestEntry& plain = plain_entry(*handle);
  failing = plain.comm;
  p2p::Status result;
  try {
    if (block)
      result = plain.request.wait(runtime().engine());
    else if (!plain.request.test(result))
      return false;
  } catch (...) {
    write_failure(std::current_exception(), status);
    context().plain_requests.erase_live(*handle);
    *handle = SCOMM_REQUEST_NULL;
    throw;
  }
  context().plain_requests.erase_live(*handle);
  *handle = SCOMM_REQUEST_NULL;
  write_status(result, status);
  return true;
}

// Reports a completed request (or an empty status for SCOMM_REQUEST_NULL) and frees it; a plain
// one is completed here. A general one whose failure progress() kept is reported
// and freed, then its failure thrown.
void retire(SCOMM_Request* handle, SCOMM_Status* status, SCOMM_Comm& failing) {
  if (*handle == SCOMM_REQUEST_NULL) {
    write_status(p2p::Status::inactive(), status);
    return;
  }
  if (PlainTable::has_upper_kind(*handle)) {
    complete_plain(handle, status, failing, true);
    return;
  }
  RequestEntry& entry = request_entry(*handle);
  const std::exception_ptr failure = entry.failure;
  if (failure) {
    failing = entry.comm;
    write_failure(failure, status);
  } else {
    write_status(*entry.completed, status);
  }
  context().requests.erase(*handle);
  *handle = SCOMM_REQUEST_NULL;
  if (failure) std::rethrow_exception(failure);
}

}  // namespace

namespace scomm::capi {

void check_array(int count, const SCOMM_Request* requests) {
  if (count < 0) throw Error(ErrorClass::kCount, "negative count " + std::to_string(count));
  if (count > 0) require(requests, "array_of_requests");
}

int check_live(int count, const SCOMM_Request requests[]) {
  const std::uint64_t lookup = ++context().array_lookups;
  int first_active = count;
  for (int i = 0; i < count; ++i) {
    if (requests[i] == SCOMM_REQUEST_NULL) continue;
    std::uint64_t& mark = listed_in(requests[i]);
    if (mark == lookup) throw_listed_twice(requests[i]);
    mark = lookup;
    first_active = std::min(first_active, i);
  }
  return first_active;
}

bool complete_if_done(SCOMM_Request* handle, SCOMM_Status* status, SCOMM_Comm& failing) {
  if (PlainTable::has_upper_kind(*handle)) return complete_plain(handle, status, failing, false);
  if (!progress(*handle, failing)) return false;
  retire(handle, status, failing);
  return true;
}

}  // namespace scomm::capi

namespace {

#if defined(SCOMM_EARLY_COMPLETIONS)
// After an MPI_Testall (of SMPI or MPICH) that returned flag 0, or MPI_ERR_IN_STATUS with some
// requests pending, over the scratch copies of the plain requests' base handles: each one it
// completed and freed anyway keeps its status (p2p::EarlyCompletion), so that its handle in the
// table does not dangle.
void keep_early_completions(int count, const SCOMM_Request requests[]) {
  PlainTable& table = context().plain_requests;
  const p2p::WaitBuffers& buffers = context().wait_scratch.buffers;
  for (int i = 0, k = 0; i < count; ++i) {
    if (!PlainTable::has_upper_kind(requests[i])) continue;
    p2p::PlainRequest& plain = table.get_live(requests[i]).request;
    const auto at = static_cast<std::size_t>(k++);
    if (buffers.batch[at] == MPI_REQUEST_NULL && plain.mpi() != MPI_REQUEST_NULL)
      plain.completed_early(buffers.statuses[at]);
  }
}
#endif

// Whether an MPI completion left a request pending after another failed (MPICH's answer).
bool any_pending(const std::vector<MPI_Status>& statuses) {
  return std::any_of(statuses.begin(), statuses.end(),
                     [](const MPI_Status& s) { return s.MPI_ERROR == MPI_ERR_PENDING; });
}

// SCOMM_Testall's plain requests, once every other one has completed: one MPI_Testall over their
// base requests, which completes all of them or none (but for those SMPI or MPICH complete
// early). True when it has: their MPI statuses are then in the scratch buffers in the order of
// the requests, and `rc` is MPI_Testall's.
bool test_all_plain(int count, const SCOMM_Request requests[], int& rc) {
  PlainTable& table = context().plain_requests;
  p2p::WaitBuffers& buffers = context().wait_scratch.buffers;
  buffers.batch.clear();
  for (int i = 0; i < count; ++i)
    if (PlainTable::has_upper_kind(requests[i]))
      buffers.batch.push_back(table.get_live(requests[i]).request.mpi());
  if (buffers.batch.empty()) return true;
  buffers.statuses.resize(buffers.batch.size());
  int flag = 0;
  [[maybe_unused]] const p2p::CompletionErrorsReturned errors_returned;
  rc = p2p::test_all(static_cast<int>(buffers.batch.size()), buffers.batch.data(), &flag,
                     buffers.statuses.data());
  if (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS) p2p::check_mpi(rc, "MPI_Testall");
  const bool all = flag != 0 || (rc == MPI_ERR_IN_STATUS && !any_pending(buffers.statuses));
#if defined(SCOMM_EARLY_COMPLETIONS)
  if (!all) keep_early_completions(count, requests);
#endif
  return all;
}

// SCOMM_Testall once every request has completed or failed: reports and frees each in order (a
// plain one with the status test_all_plain left, given MPI_Testall's `rc`); the first failure
// is thrown after every request is freed.
void retire_all(int count, SCOMM_Request requests[], SCOMM_Status statuses[], int rc,
                SCOMM_Comm& failing) {
  const auto& plain_statuses = context().wait_scratch.buffers.statuses;
  FirstFailure first;
  for (int i = 0, k = 0; i < count; ++i) {
    SCOMM_Comm comm = SCOMM_COMM_WORLD;
    if (PlainTable::has_upper_kind(requests[i])) {
      int error = MPI_SUCCESS;
      finish_plain(&requests[i], plain_statuses[static_cast<std::size_t>(k++)], rc,
                   status_at(statuses, i), error, comm);
      first.note_mpi(error, "MPI_Testall", comm);
      continue;
    }
    try {
      retire(&requests[i], status_at(statuses, i), comm);
    } catch (...) {
      first.note(std::current_exception(), comm);
    }
  }
  first.rethrow(failing);
}

// SCOMM_Waitall's common case, every request plain (or SCOMM_REQUEST_NULL) and scratch space for
// `count` requests: one MPI_Waitall straight over their base requests (p2p::wait_all_mpi). False,
// having done nothing, otherwise. Every request is complete after it, failed or not, and freed
// (MPI's rule); the first failure is left in `error` and `failing` (the failed request's
// communicator), and a failed request's status carries its error class.
bool wait_all_plain(int count, SCOMM_Request requests[], SCOMM_Status statuses[], int& error,
                    SCOMM_Comm& failing) noexcept {
  scomm::comm::Runtime* runtime = context().runtime.get();
  WaitScratch& scratch = context().wait_scratch;
  if (runtime == nullptr || static_cast<std::size_t>(count) > scratch.plain_batch.size())
    return false;
  MPI_Request* const batch = scratch.plain_batch.data();
  MPI_Status* const mpi_statuses = scratch.plain_statuses.data();
  const std::uint64_t lookup = ++context().array_lookups;  // as check_live marks
  for (int i = 0; i < count; ++i) {
    if (requests[i] == SCOMM_REQUEST_NULL) {
      batch[i] = MPI_REQUEST_NULL;
      continue;
    }
    const PlainRequestEntry* plain = mark_plain(requests[i], lookup);
    if (plain == nullptr) return false;  // the general path tells
    batch[i] = plain->request.mpi();
  }
  const int rc = p2p::wait_all_mpi(runtime->engine(), count, batch, mpi_statuses);
  error = rc == MPI_ERR_IN_STATUS ? MPI_SUCCESS : rc;
  for (int i = 0; i < count; ++i) {
    if (requests[i] == SCOMM_REQUEST_NULL)
      write_status(p2p::Status::inactive(), status_at(statuses, i));
    else
      finish_plain(&requests[i], mpi_statuses[i], rc, status_at(statuses, i), error, failing);
  }
  return true;
}

// Finds the entry of every request (an error before anything changes when one is not live) and
// lists the incomplete ones in scratch.active, plain ones converted to general requests.
void gather_waiting(int count, const SCOMM_Request requests[], WaitScratch& scratch) {
  auto& waiting = scratch.waiting;
  waiting.assign(static_cast<std::size_t>(count), Waiting{});
  for (int i = 0; i < count; ++i) {
    if (requests[i] == SCOMM_REQUEST_NULL) continue;
    Waiting& w = waiting[static_cast<std::size_t>(i)];
    if (PlainTable::has_upper_kind(requests[i]))
      w.plain = &plain_entry(requests[i]);
    else
      w.entry = &request_entry(requests[i]);
  }
  scratch.converted.clear();
  scratch.converted.reserve(static_cast<std::size_t>(count));  // pointers into it stay valid
  scratch.active.clear();
  for (Waiting& w : waiting) {
    if (w.plain != nullptr) {
      scratch.converted.push_back(std::move(w.plain->request).to_request());
      w.active = scratch.active.size();
      scratch.active.push_back(&scratch.converted.back());
    } else if (w.entry != nullptr && !w.entry->settled()) {
      w.active = scratch.active.size();
      scratch.active.push_back(&w.entry->request);
    }
  }
}

// SCOMM_Waitall's general case: requests of both kinds, receives in the matching engine,
// creations, or background operations to progress.
void wait_all_general(int count, SCOMM_Request requests[], SCOMM_Status statuses[],
                      SCOMM_Comm& failing) {
  WaitScratch& scratch = context().wait_scratch;
  gather_waiting(count, requests, scratch);
  auto& done = scratch.done;
  done.assign(scratch.active.size(), std::nullopt);
  std::exception_ptr failure;
  try {
    p2p::wait_all(runtime().engine(), scratch.active, done, scratch.buffers);
  } catch (...) {
    failure = std::current_exception();
  }
  // Creations write their communicators before any request is freed (a creation may hold
  // contexts for the others).
  for (const Waiting& w : scratch.waiting) {
    if (w.entry == nullptr || w.active == Waiting::kNotWaited || !done[w.active]) continue;
    w.entry->completed = done[w.active];
    if (w.entry->creation != nullptr) complete_creation(*w.entry);
  }
  // Report and free them all; a failed one is freed too, its status its error class.
  FirstFailure first;
  for (int i = 0; i < count; ++i) {
    SCOMM_Status* status = status_at(statuses, i);
    const Waiting& w = scratch.waiting[static_cast<std::size_t>(i)];
    if (requests[i] == SCOMM_REQUEST_NULL) {
      write_status(p2p::Status::inactive(), status);
      continue;
    }
    const std::optional<p2p::Status>& result =
        w.entry != nullptr ? w.entry->completed : done[w.active];
    const SCOMM_Comm comm = w.entry != nullptr ? w.entry->comm : w.plain->comm;
    if (w.entry != nullptr && w.entry->failure) {  // kept by an earlier SCOMM_Testall
      write_failure(w.entry->failure, status);
      first.note(w.entry->failure, comm);
    } else if (result) {
      write_status(*result, status);
    } else {  // failed here: `failure` is that of the first failed one
      p2p::Status failed = scratch.buffers.failures[w.active];
      if (failed.error == MPI_SUCCESS) failed.error = static_cast<int>(ErrorClass::kIntern);
      write_status(failed, status);
      first.note(failure, comm);
    }
    if (w.plain != nullptr)
      context().plain_requests.erase_live(requests[i]);
    else
      context().requests.erase_live(requests[i]);
    requests[i] = SCOMM_REQUEST_NULL;
  }
  scratch.converted.clear();  // they hold channels: none may outlive its request
  first.rethrow(failing);
}

void cancel(SCOMM_Request request, SCOMM_Comm& failing) {
  if (PlainTable::has_upper_kind(request)) {
    PlainRequestEntry& plain = plain_entry(request);
    failing = plain.comm;
    plain.request.cancel();
    return;
  }
  RequestEntry& entry = request_entry(request);
  failing = entry.comm;
  if (entry.persistent) {
    if (entry.persistent->started == SCOMM_REQUEST_NULL)
      throw Error(ErrorClass::kRequest, "an inactive persistent request cannot be cancelled");
    cancel(entry.persistent->started, failing);
    return;
  }
  if (entry.creation != nullptr)
    throw Error(ErrorClass::kRequest, "a communicator creation cannot be cancelled");
  if (entry.collective)
    throw Error(ErrorClass::kRequest, "a nonblocking collective cannot be cancelled (MPI)");
  if (!entry.settled()) entry.request.cancel(runtime().engine());
}

// Frees *request (an active one completes on its own) and sets it to SCOMM_REQUEST_NULL.
void free_request(SCOMM_Request* request, SCOMM_Comm& failing) {
  if (PlainTable::has_upper_kind(*request)) {
    PlainRequestEntry& plain = plain_entry(*request);
    failing = plain.comm;
    plain.request.release(runtime().engine());
    context().plain_requests.erase_live(*request);
    *request = SCOMM_REQUEST_NULL;
    return;
  }
  RequestEntry& entry = request_entry(*request);
  failing = entry.comm;
  if (entry.persistent) {
    if (entry.persistent->started != SCOMM_REQUEST_NULL)
      free_request(&entry.persistent->started, failing);
    release_persistent_request(*entry.persistent);
  } else if (entry.collective) {  // MPI calls freeing one erroneous, complete or not
    throw Error(ErrorClass::kRequest, "a nonblocking collective must be completed, not freed");
  } else if (!entry.settled()) {
    if (entry.creation != nullptr)
      throw Error(ErrorClass::kRequest, "a communicator creation must be completed");
    entry.request.release(runtime().engine());
  }
  context().requests.erase_live(*request);
  *request = SCOMM_REQUEST_NULL;
}

// Whether request `handle` has completed, its status then in *status, without completing it (a
// failure is thrown, and kept for the call that completes it).
bool peek(SCOMM_Request handle, SCOMM_Status* status, SCOMM_Comm& failing) {
  if (handle == SCOMM_REQUEST_NULL) {
    write_status(p2p::Status::inactive(), status);
    return true;
  }
  p2p::Status result;
  if (PlainTable::has_upper_kind(handle)) {
    PlainRequestEntry& plain = plain_entry(handle);
    failing = plain.comm;
    if (!plain.request.peek(result)) return false;
    write_status(result, status);
    return true;
  }
  if (!progress(handle, failing)) return false;
  const RequestEntry& entry = request_entry(handle);
  if (entry.failure) {
    write_failure(entry.failure, status);
    std::rethrow_exception(entry.failure);
  }
  write_status(*entry.completed, status);
  return true;
}

// A failure of SCOMM_Waitall's fast path, reported through `failing`'s error handler.
[[gnu::cold, gnu::noinline]] int fail_waitall(int error, SCOMM_Comm failing) noexcept {
  const int code = guarded("SCOMM_Waitall", [&] { p2p::check_mpi(error, "MPI_Waitall"); });
  return raise(failing, code);
}

// SCOMM_Waitall but for its fast path (the message calls' fast paths are in capi/p2p.cpp):
// checks its arguments, makes room for wait_all_plain() and falls back on wait_all_general().
[[gnu::noinline]] int wait_all(const char* function, int count, SCOMM_Request requests[],
                               SCOMM_Status statuses[]) noexcept {
  return on_requests(function, [&](SCOMM_Comm& failing) {
    check_array(count, requests);
    const StartedRequests started(count, requests);
    check_live(count, requests);
    WaitScratch& scratch = context().wait_scratch;
    if (scratch.plain_batch.size() < static_cast<std::size_t>(count)) {
      scratch.plain_batch.resize(static_cast<std::size_t>(count));
      scratch.plain_statuses.resize(static_cast<std::size_t>(count));
    }
    int error = MPI_SUCCESS;
    if (wait_all_plain(count, requests, statuses, error, failing))
      p2p::check_mpi(error, "MPI_Waitall");
    else
      wait_all_general(count, requests, statuses, failing);
  });
}

}  // namespace

extern "C" {

int SCOMM_Wait(SCOMM_Request* request, SCOMM_Status* status) {
  const KeptErrorField kept(status);
  return on_requests("SCOMM_Wait", [&](SCOMM_Comm& failing) {
    require(request, "request");
    const StartedRequests started(1, request);
    if (*request != SCOMM_REQUEST_NULL && !PlainTable::has_upper_kind(*request))
      progress(*request, failing, true);
    retire(request, status, failing);
  });
}

int SCOMM_Test(SCOMM_Request* request, int* flag, SCOMM_Status* status) {
  const KeptErrorField kept(status);
  return on_requests("SCOMM_Test", [&](SCOMM_Comm& failing) {
    require(request, "request");
    require(flag, "flag");
    const StartedRequests started(1, request);
    runtime().engine().progress_background();
    *flag = complete_if_done(request, status, failing) ? 1 : 0;
  });
}

int SCOMM_Waitall(int count, SCOMM_Request requests[], SCOMM_Status statuses[]) {
  if (count >= 0 && (requests != nullptr || count == 0)) [[likely]] {
    int error = MPI_SUCCESS;
    SCOMM_Comm failing = SCOMM_COMM_WORLD;
    if (wait_all_plain(count, requests, statuses, error, failing)) [[likely]]
      return error == MPI_SUCCESS ? SCOMM_SUCCESS : fail_waitall(error, failing);
  }
  return wait_all("SCOMM_Waitall", count, requests, statuses);
}

int SCOMM_Testall(int count, SCOMM_Request requests[], int* flag, SCOMM_Status statuses[]) {
  return on_requests("SCOMM_Testall", [&](SCOMM_Comm& failing) {
    check_array(count, requests);
    require(flag, "flag");
    const StartedRequests started(count, requests);
    check_live(count, requests);
    runtime().engine().progress_background();
    bool all = true;
    for (int i = 0; i < count; ++i)
      if (!PlainTable::has_upper_kind(requests[i])) all = progress(requests[i], failing) && all;
    int rc = MPI_SUCCESS;
    all = all && test_all_plain(count, requests, rc);
    *flag = all ? 1 : 0;
    if (all) retire_all(count, requests, statuses, rc, failing);
  });
}

int SCOMM_Request_get_status(SCOMM_Request request, int* flag, SCOMM_Status* status) {
  const KeptErrorField kept(status);
  return on_requests("SCOMM_Request_get_status", [&](SCOMM_Comm& failing) {
    require(flag, "flag");
    SCOMM_Request handle = request;  // the call never changes the caller's handle
    const StartedRequests started(1, &handle);
    check_live(1, &handle);
    runtime().engine().progress_background();
    *flag = 1;  // a request whose failure peek() throws is complete (MPICH: flag 1 and the error)
    *flag = peek(handle, status, failing) ? 1 : 0;
  });
}

int SCOMM_Cancel(SCOMM_Request* request) {
  return on_requests("SCOMM_Cancel", [&](SCOMM_Comm& failing) {
    require(request, "request");
    cancel(*request, failing);
  });
}

int SCOMM_Request_free(SCOMM_Request* request) {
  return on_requests("SCOMM_Request_free", [&](SCOMM_Comm& failing) {
    require(request, "request");
    free_request(request, failing);
  });
}

}  // extern "C"
