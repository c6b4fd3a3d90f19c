// SCOMM_Waitany, SCOMM_Testany, SCOMM_Waitsome, SCOMM_Testsome: completion of any or some of many
// requests. Each looks at the active requests in the order of the array (as Open MPI and MPICH
// do), testing each with MPI_Test or the matching engine, so that requests of every kind (plain,
// matching engine, collectives, creations) mix. Every handle is checked before anything changes.
// A failed request is complete (and freed) too: the *any calls give its index, the *some calls
// list it with SCOMM_ERROR in its status set to the error class; the first failure is reported
// through its communicator's error handler once every request has been looked at.
#include <exception>

#include "scomm.h"
#include "scomm/capi/context.hpp"
#include "scomm/capi/request_completion.hpp"

namespace {

using namespace scomm::capi;
namespace p2p = scomm::p2p;

bool any_active(int count, const SCOMM_Request requests[]) {
  for (int i = 0; i < count; ++i)
    if (requests[i] != SCOMM_REQUEST_NULL) return true;
  return false;
}

// Looks at the active requests once, in order, until one has completed: reports it in *status,
// frees it and leaves its index in *index; MPI_UNDEFINED there when none has. A failed request's
// index is in *index when its failure is thrown.
void complete_any(int count, SCOMM_Request requests[], int* index, SCOMM_Status* status,
                  SCOMM_Comm& failing) {
  for (int i = 0; i < count; ++i) {
    if (requests[i] == SCOMM_REQUEST_NULL) continue;
    *index = i;
    if (complete_if_done(&requests[i], status, failing)) return;
  }
  *index = MPI_UNDEFINED;
}

// Looks at every active request once, in order, and completes, reports and frees those that are
// done: their indices in indices[0, *outcount), their statuses at the same places of `statuses`.
// A request that failed is listed too, its failure kept: the first one is thrown at the end,
// `failing` its communicator. A failure that freed nothing (a handle given twice, dead once its
// first copy completed) is thrown at once.
void complete_some(int count, SCOMM_Request requests[], int* outcount, int indices[],
                   SCOMM_Status statuses[], SCOMM_Comm& failing) {
  std::exception_ptr failure;
  *outcount = 0;
  for (int i = 0; i < count; ++i) {
    if (requests[i] == SCOMM_REQUEST_NULL) continue;
    SCOMM_Status* status = status_at(statuses, *outcount);
    SCOMM_Comm comm = failing;
    try {
      if (!complete_if_done(&requests[i], status, comm)) continue;
    } catch (const scomm::Error& e) {
      if (requests[i] != SCOMM_REQUEST_NULL) throw;
      write_failure(e.error_class(), status);
      if (!failure) {
        failure = std::current_exception();
        failing = comm;
      }
    }
    indices[(*outcount)++] = i;
  }
  if (failure) std::rethrow_exception(failure);
}

void check_some_arguments(int count, const SCOMM_Request requests[], const int* outcount,
                          const int* indices) {
  check_array(count, requests);
  require(outcount, "outcount");
  if (count > 0) require(indices, "array_of_indices");
  check_live(count, requests);
}

}  // namespace

extern "C" {

int SCOMM_Waitany(int count, SCOMM_Request requests[], int* index, SCOMM_Status* status) {
  return on_requests("SCOMM_Waitany", [&](SCOMM_Comm& failing) {
    check_array(count, requests);
    require(index, "index");
    check_live(count, requests);
    *index = MPI_UNDEFINED;
    if (!any_active(count, requests)) {
      write_status(p2p::Status::inactive(), status);
      return;
    }
    for (;;) {
      complete_any(count, requests, index, status, failing);
      if (*index != MPI_UNDEFINED) return;
      runtime().engine().progress_background();
    }
  });
}

int SCOMM_Testany(int count, SCOMM_Request requests[], int* index, int* flag,
                  SCOMM_Status* status) {
  return on_requests("SCOMM_Testany", [&](SCOMM_Comm& failing) {
    check_array(count, requests);
    require(index, "index");
    require(flag, "flag");
    check_live(count, requests);
    *index = MPI_UNDEFINED;
    *flag = 1;
    if (!any_active(count, requests)) {
      write_status(p2p::Status::inactive(), status);
      return;
    }
    runtime().engine().progress_background();
    complete_any(count, requests, index, status, failing);
    *flag = *index != MPI_UNDEFINED ? 1 : 0;
  });
}

int SCOMM_Waitsome(int incount, SCOMM_Request requests[], int* outcount, int indices[],
                   SCOMM_Status statuses[]) {
  return on_requests("SCOMM_Waitsome", [&](SCOMM_Comm& failing) {
    check_some_arguments(incount, requests, outcount, indices);
    *outcount = MPI_UNDEFINED;
    if (!any_active(incount, requests)) return;
    for (;;) {
      complete_some(incount, requests, outcount, indices, statuses, failing);
      if (*outcount > 0) return;
      runtime().engine().progress_background();
    }
  });
}

int SCOMM_Testsome(int incount, SCOMM_Request requests[], int* outcount, int indices[],
                   SCOMM_Status statuses[]) {
  return on_requests("SCOMM_Testsome", [&](SCOMM_Comm& failing) {
    check_some_arguments(incount, requests, outcount, indices);
    *outcount = MPI_UNDEFINED;
    if (!any_active(incount, requests)) return;
    runtime().engine().progress_background();
    complete_some(incount, requests, outcount, indices, statuses, failing);
  });
}

}  // extern "C"
