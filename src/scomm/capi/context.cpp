// The library context and its one accessor.
#include "scomm/capi/context.hpp"

#include "scomm.h"

namespace scomm::capi {

static_assert(SCOMM_UNDEFINED == group::kUndefined,
              "the group layer's kUndefined is MPI_UNDEFINED");

// The only mutable state of the library. One accessor, so that a runtime that runs many ranks in
// one process (SimGrid SMPI) can give each rank its own instance by changing this function alone.
Context& context() {
  static Context instance;
  return instance;
}

int report(ErrorClass error_class, const char* function, const char* what) noexcept {
  try {
    return context().errors.record(error_class, std::string(function) + ": " + what);
  } catch (...) {
    return static_cast<int>(error_class);
  }
}

comm::Runtime& runtime() {
  if (!context().runtime) throw Error(ErrorClass::kArg, "SCOMM_Init has not been called");
  return *context().runtime;
}

}  // namespace scomm::capi
