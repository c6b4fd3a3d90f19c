// What a SCOMM_Status tells beyond its source, tag and error, as MPI's status calls tell it: the
// count and elements received (from the base MPI's status inside), cancellation, and their
// setters for generalized uses.
#include <string>

#include "scomm.h"
#include "scomm/capi/context.hpp"
#include "scomm/p2p/committed_type.hpp"
#include "scomm/p2p/mpi_check.hpp"

namespace {

using namespace scomm::capi;

// A type MPI can count in: not null, and committed (checked on a base communicator while scomm
// is initialized: MPI's own error would go to MPI_COMM_WORLD's handler, fatal by default).
void check_type(MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL) throw scomm::Error(scomm::ErrorClass::kType, "MPI_DATATYPE_NULL");
  if (const scomm::comm::Runtime* runtime = context().runtime.get())
    scomm::p2p::check_committed(type, runtime->world());
}

}  // namespace

extern "C" {

int SCOMM_Get_count(const SCOMM_Status* status, MPI_Datatype type, int* count) {
  return guarded("SCOMM_Get_count", [&] {
    require(status, "status");
    require(count, "count");
    check_type(type);
    scomm::p2p::check_mpi(MPI_Get_count(&status->scomm_mpi_, type, count), "MPI_Get_count");
  });
}

int SCOMM_Get_elements(const SCOMM_Status* status, MPI_Datatype type, int* count) {
  return guarded("SCOMM_Get_elements", [&] {
    require(status, "status");
    require(count, "count");
    check_type(type);
#if defined(SMPI_H)  // SMPI 3.32 declares MPI_Get_elements but aborts in it
    throw scomm::Error(scomm::ErrorClass::kNotSupported,
                       "the base MPI (SimGrid SMPI) has no MPI_Get_elements");
#else
    scomm::p2p::check_mpi(MPI_Get_elements(&status->scomm_mpi_, type, count), "MPI_Get_elements");
#endif
  });
}

int SCOMM_Test_cancelled(const SCOMM_Status* status, int* flag) {
  return guarded("SCOMM_Test_cancelled", [&] {
    require(status, "status");
    require(flag, "flag");
    *flag = status->scomm_cancelled_;
  });
}

int SCOMM_Status_set_elements(SCOMM_Status* status, MPI_Datatype type, int count) {
  return guarded("SCOMM_Status_set_elements", [&] {
    require(status, "status");
    check_type(type);
    if (count < 0)
      throw scomm::Error(scomm::ErrorClass::kCount, "negative count " + std::to_string(count));
    scomm::p2p::check_mpi(MPI_Status_set_elements(&status->scomm_mpi_, type, count),
                          "MPI_Status_set_elements");
  });
}

int SCOMM_Status_set_cancelled(SCOMM_Status* status, int flag) {
  return guarded("SCOMM_Status_set_cancelled", [&] {
    require(status, "status");
    status->scomm_cancelled_ = flag != 0 ? 1 : 0;
    MPI_Status_set_cancelled(&status->scomm_mpi_, status->scomm_cancelled_);
  });
}

}  // extern "C"
