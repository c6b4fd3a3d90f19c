// SCOMM_Init, SCOMM_Finalize, SCOMM_Tag_ub: the runtime's life and what it publishes.
#include "scomm.h"
#include "scomm/capi/context.hpp"

using scomm::Error;
using scomm::ErrorClass;
using scomm::capi::context;
using scomm::capi::guarded;
using scomm::capi::require;

extern "C" {

int SCOMM_Init(void) {
  return guarded("SCOMM_Init", [] {
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (!initialized || finalized)
      throw Error(ErrorClass::kArg, "MPI must be initialized (and not finalized) first");
    if (context().runtime) throw Error(ErrorClass::kArg, "scomm is already initialized");
    context().runtime = std::make_unique<scomm::comm::Runtime>(
        MPI_COMM_WORLD, scomm::comm::Runtime::base_count_from_environment());
  });
}

int SCOMM_Finalize(void) {
  return guarded("SCOMM_Finalize", [] {
    scomm::capi::runtime();  // reports a missing SCOMM_Init
    context().runtime.reset();
  });
}

int SCOMM_Tag_ub(int* tag_ub) {
  return guarded("SCOMM_Tag_ub", [&] {
    require(tag_ub, "tag_ub");
    *tag_ub = scomm::capi::runtime().layout().published_tag_ub();
  });
}

}  // extern "C"
