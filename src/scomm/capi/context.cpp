#include "scomm/capi/context.hpp"

#include <array>

#include "scomm.h"

namespace scomm::capi {
namespace {

constexpr std::array<const char*, SCOMM_ERR_LASTCODE + 1> kClassNames{
    "SCOMM_SUCCESS: no error",
    "SCOMM_ERR_GROUP: invalid group",
    "SCOMM_ERR_RANK: invalid rank",
    "SCOMM_ERR_ARG: invalid argument",
    "SCOMM_ERR_COMM: invalid communicator",
    "SCOMM_ERR_TAG: invalid tag",
    "SCOMM_ERR_COUNT: invalid count",
    "SCOMM_ERR_TRUNCATE: message truncated",
    "SCOMM_ERR_ROOT: invalid root",
    "SCOMM_ERR_OP: invalid operation",
    "SCOMM_ERR_TYPE: invalid datatype",
    "SCOMM_ERR_REQUEST: invalid request",
    "SCOMM_ERR_BUFFER: invalid buffer",
    "SCOMM_ERR_NO_MEM: out of memory or resources",
    "SCOMM_ERR_CONTEXT: no context can separate this communicator's messages",
    "SCOMM_ERR_NOT_SUPPORTED: not supported",
    "SCOMM_ERR_INTERN: internal error",
    "SCOMM_ERR_LASTCODE: unknown error",
};

static_assert(SCOMM_UNDEFINED == group::kUndefined,
              "the group layer's kUndefined is MPI_UNDEFINED");
static_assert(static_cast<int>(ErrorClass::kLast) == SCOMM_ERR_LASTCODE);

}  // namespace

int ErrorLog::record(ErrorClass error_class, std::string message) {
  const int slot = next_;
  next_ = (next_ + 1) % kSlots;
  const int code = static_cast<int>(error_class) + 256 * (slot + 1);
  messages_[static_cast<std::size_t>(slot)] = std::move(message);
  codes_[static_cast<std::size_t>(slot)] = code;
  return code;
}

std::string ErrorLog::describe(int code) const {
  const int error_class = code & 0xff;
  if (code < 0 || error_class > SCOMM_ERR_LASTCODE) return kClassNames[SCOMM_ERR_LASTCODE];
  const std::string generic = kClassNames[static_cast<std::size_t>(error_class)];
  const int slot = code / 256 - 1;
  if (slot < 0 || slot >= kSlots || codes_[static_cast<std::size_t>(slot)] != code) return generic;
  return generic.substr(0, generic.find(':')) + ": " + messages_[static_cast<std::size_t>(slot)];
}

Context& context() {
  static Context instance;
  return instance;
}

comm::Runtime& runtime() {
  if (!context().runtime) throw Error(ErrorClass::kArg, "SCOMM_Init has not been called");
  return *context().runtime;
}

}  // namespace scomm::capi
