// SCOMM_Wait ... SCOMM_Cancel: completion of requests. A request's failure is reported through
// its communicator's error handler, and the request is freed all the same (MPI's rule).
#include <exception>
#include <string>
#include <vector>

#include "scomm.h"
#include "scomm/capi/context.hpp"
#include "scomm/p2p/completion.hpp"
#include "scomm/p2p/mpi_check.hpp"

namespace scomm::capi {

void write_status(const p2p::Status& from, SCOMM_Status* to);
void complete_creation(RequestEntry& entry);

}  // namespace scomm::capi

namespace {

using namespace scomm::capi;
using scomm::Error;
using scomm::ErrorClass;
namespace p2p = scomm::p2p;

RequestEntry& request_entry(SCOMM_Request handle) {
  RequestEntry* entry = context().requests.find(handle);
  if (entry == nullptr)
    throw Error(ErrorClass::kRequest, "request handle " + std::to_string(handle) +
                                          " is not live (completed, freed or never created)");
  return *entry;
}

// Advances request `handle` without freeing it; true once it has completed.
bool progress(SCOMM_Request handle, SCOMM_Comm& failing) {
  if (handle == SCOMM_REQUEST_NULL) return true;
  RequestEntry& entry = request_entry(handle);
  if (entry.completed) return true;
  failing = entry.comm;
  p2p::Status status;
  try {
    if (!entry.request.test(runtime().engine(), status)) return false;
  } catch (...) {
    context().requests.erase(handle);  // failed, hence complete
    throw;
  }
  if (entry.creation != nullptr) complete_creation(entry);
  entry.completed = status;
  return true;
}

// Reports a completed request (or an empty status for SCOMM_REQUEST_NULL) and frees it.
void retire(SCOMM_Request* handle, SCOMM_Status* status) {
  if (*handle == SCOMM_REQUEST_NULL) {
    write_status(p2p::Status::empty(), status);
    return;
  }
  write_status(*request_entry(*handle).completed, status);
  context().requests.erase(*handle);
  *handle = SCOMM_REQUEST_NULL;
}

// guarded() whose failure goes through the error handler of the request's communicator.
template <typename Body>
int on_requests(const char* function, Body&& body) noexcept {
  SCOMM_Comm failing = SCOMM_COMM_WORLD;
  const int code = guarded(function, [&] { body(failing); });
  return code == 0 ? 0 : raise(failing, code);
}

SCOMM_Status* status_at(SCOMM_Status* statuses, int i) {
  return statuses == SCOMM_STATUSES_IGNORE ? SCOMM_STATUS_IGNORE : &statuses[i];
}

void check_array(int count, const SCOMM_Request* requests) {
  if (count < 0) throw Error(ErrorClass::kCount, "negative count " + std::to_string(count));
  if (count > 0) require(requests, "array_of_requests");
}

// SCOMM_Waitall's common case, statuses ignored and every request a plain MPI operation that
// needs no status (plain_mpi_without_status): one MPI_Waitall straight over the MPI requests,
// ignoring statuses too. False, having done nothing, when some request is not of that kind or
// background operations need progress.
bool wait_all_plain(int count, SCOMM_Request requests[], SCOMM_Comm& failing) {
  if (runtime().engine().has_background()) return false;
  HandleTable<RequestEntry>& table = context().requests;
  auto& batch = context().wait_scratch.buffers.batch;
  batch.clear();
  for (int i = 0; i < count; ++i) {
    if (requests[i] == SCOMM_REQUEST_NULL) continue;
    RequestEntry* entry = table.find(requests[i]);
    if (entry == nullptr || entry->completed) return false;
    const MPI_Request* mpi = entry->request.plain_mpi_without_status();
    if (mpi == nullptr) return false;
    batch.push_back(*mpi);
  }
  auto& statuses = context().wait_scratch.buffers.statuses;
  statuses.resize(batch.size());
  [[maybe_unused]] const p2p::CompletionErrorsReturned errors_returned;
  const int rc = MPI_Waitall(static_cast<int>(batch.size()), batch.data(), statuses.data());
  // Every request is complete now, failed or not, and freed (MPI's rule). A failure is reported
  // through the communicator of the first request that failed.
  int error = rc == MPI_ERR_IN_STATUS ? MPI_SUCCESS : rc;
  for (int i = 0, k = 0; i < count; ++i) {
    if (requests[i] == SCOMM_REQUEST_NULL) continue;
    if (rc == MPI_ERR_IN_STATUS && error == MPI_SUCCESS) [[unlikely]] {
      error = statuses[static_cast<std::size_t>(k)].MPI_ERROR;
      if (error != MPI_SUCCESS) failing = table.find(requests[i])->comm;
    }
    ++k;
    table.erase_live(requests[i]);
    requests[i] = SCOMM_REQUEST_NULL;
  }
  p2p::check_mpi(error, "MPI_Waitall");
  return true;
}

}  // namespace

// SCOMM_Waitall is flattened like the message calls (capi/p2p.cpp).
extern "C" {

int SCOMM_Wait(SCOMM_Request* request, SCOMM_Status* status) {
  return on_requests("SCOMM_Wait", [&](SCOMM_Comm& failing) {
    require(request, "request");
    while (!progress(*request, failing)) runtime().engine().progress_background();
    retire(request, status);
  });
}

int SCOMM_Test(SCOMM_Request* request, int* flag, SCOMM_Status* status) {
  return on_requests("SCOMM_Test", [&](SCOMM_Comm& failing) {
    require(request, "request");
    require(flag, "flag");
    runtime().engine().progress_background();
    *flag = progress(*request, failing) ? 1 : 0;
    if (*flag) retire(request, status);
  });
}

[[gnu::flatten]] int SCOMM_Waitall(int count, SCOMM_Request requests[], SCOMM_Status statuses[]) {
  return on_requests("SCOMM_Waitall", [&](SCOMM_Comm& failing) {
    check_array(count, requests);
    if (statuses == SCOMM_STATUSES_IGNORE && wait_all_plain(count, requests, failing)) return;
    WaitScratch& scratch = context().wait_scratch;
    auto& entries = scratch.entries;
    auto& active = scratch.active;
    entries.clear();
    active.clear();
    for (int i = 0; i < count; ++i) {
      if (requests[i] == SCOMM_REQUEST_NULL) continue;
      entries.push_back(&request_entry(requests[i]));
      if (!entries.back()->completed) active.push_back(&entries.back()->request);
    }
    auto& done = scratch.done;
    done.assign(active.size(), std::nullopt);
    std::exception_ptr failure;
    try {
      p2p::wait_all(runtime().engine(), active, done, scratch.buffers);
    } catch (...) {
      failure = std::current_exception();
    }
    for (std::size_t a = 0, e = 0; e < entries.size(); ++e) {
      if (entries[e]->completed) continue;
      if (done[a]) {
        entries[e]->completed = done[a];
        if (entries[e]->creation != nullptr) complete_creation(*entries[e]);
      } else {
        failing = entries[e]->comm;
      }
      ++a;
    }
    // Report and free them all; a failed one (not completed) has no status but is freed too.
    for (std::size_t i = 0, e = 0; i < static_cast<std::size_t>(count); ++i) {
      SCOMM_Status* status = status_at(statuses, static_cast<int>(i));
      if (requests[i] == SCOMM_REQUEST_NULL) {
        write_status(p2p::Status::empty(), status);
        continue;
      }
      const RequestEntry* entry = entries[e++];
      if (entry->completed) write_status(*entry->completed, status);
      context().requests.erase(requests[i]);
      requests[i] = SCOMM_REQUEST_NULL;
    }
    if (failure) std::rethrow_exception(failure);
  });
}

int SCOMM_Testall(int count, SCOMM_Request requests[], int* flag, SCOMM_Status statuses[]) {
  return on_requests("SCOMM_Testall", [&](SCOMM_Comm& failing) {
    check_array(count, requests);
    require(flag, "flag");
    runtime().engine().progress_background();
    bool all = true;
    for (int i = 0; i < count; ++i) all = progress(requests[i], failing) && all;
    *flag = all ? 1 : 0;
    if (all)
      for (int i = 0; i < count; ++i) retire(&requests[i], status_at(statuses, i));
  });
}

int SCOMM_Waitany(int count, SCOMM_Request requests[], int* index, SCOMM_Status* status) {
  return on_requests("SCOMM_Waitany", [&](SCOMM_Comm& failing) {
    check_array(count, requests);
    require(index, "index");
    bool any_active = false;
    for (int i = 0; i < count; ++i) any_active = any_active || requests[i] != SCOMM_REQUEST_NULL;
    if (!any_active) {
      *index = MPI_UNDEFINED;
      write_status(p2p::Status::empty(), status);
      return;
    }
    for (;;) {
      for (int i = 0; i < count; ++i)
        if (requests[i] != SCOMM_REQUEST_NULL && progress(requests[i], failing)) {
          *index = i;
          retire(&requests[i], status);
          return;
        }
      runtime().engine().progress_background();
    }
  });
}

int SCOMM_Cancel(SCOMM_Request* request) {
  return on_requests("SCOMM_Cancel", [&](SCOMM_Comm& failing) {
    require(request, "request");
    RequestEntry& entry = request_entry(*request);
    failing = entry.comm;
    if (entry.creation != nullptr)
      throw Error(ErrorClass::kRequest, "a communicator creation cannot be cancelled");
    if (!entry.completed) entry.request.cancel(runtime().engine());
  });
}

int SCOMM_Request_free(SCOMM_Request* request) {
  return on_requests("SCOMM_Request_free", [&](SCOMM_Comm& failing) {
    require(request, "request");
    RequestEntry& entry = request_entry(*request);
    failing = entry.comm;
    if (entry.creation != nullptr && !entry.completed)
      throw Error(ErrorClass::kRequest, "a communicator creation must be completed");
    if (!entry.completed) entry.request.release(runtime().engine());
    context().requests.erase(*request);
    *request = SCOMM_REQUEST_NULL;
  });
}

}  // extern "C"
