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
    auto& ctx = context();
    ctx.runtime = std::make_unique<scomm::comm::Runtime>(
        MPI_COMM_WORLD, scomm::comm::RuntimeOptions::from_environment());
    try {
      const int world =
          ctx.comms.emplace(scomm::comm::from_mpi(*ctx.runtime, MPI_COMM_WORLD, ctx.map_policy),
                            scomm::capi::kErrorsAreFatal);
      if (world != SCOMM_COMM_WORLD) throw Error(ErrorClass::kIntern, "SCOMM_COMM_WORLD taken");
    } catch (...) {
      ctx.runtime.reset();
      throw;
    }
  });
}

int SCOMM_Finalize(void) {
  return guarded("SCOMM_Finalize", [] {
    scomm::capi::runtime();  // reports a missing SCOMM_Init
    auto& ctx = context();
    // Requests and communicators hold contexts of the runtime: they go first.
    ctx.requests = scomm::capi::HandleTable<scomm::capi::RequestEntry>(
        scomm::capi::Context::kFirstRequestHandle);
    ctx.comms =
        scomm::capi::HandleTable<scomm::capi::CommEntry>(scomm::capi::Context::kFirstCommHandle);
    ctx.runtime.reset();
  });
}

int SCOMM_Tag_ub(int* tag_ub) {
  return guarded("SCOMM_Tag_ub", [&] {
    require(tag_ub, "tag_ub");
    *tag_ub = scomm::capi::runtime().layout().published_tag_ub();
  });
}

}  // extern "C"
