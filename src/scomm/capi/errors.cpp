// Error codes and their texts; SCOMM_Error_string and SCOMM_Error_class.
#include "scomm/capi/errors.hpp"

#include "scomm.h"
#include "scomm/capi/context.hpp"

namespace scomm::capi {
namespace {

constexpr int kClassBits = 8;
constexpr int kClassMask = (1 << kClassBits) - 1;
constexpr int kSlotBits = 7;
constexpr int kSlotMask = (1 << kSlotBits) - 1;
constexpr int kSequenceBits = 31 - kClassBits - kSlotBits;  // codes stay positive ints
constexpr unsigned kSequenceMask = (1u << kSequenceBits) - 1;
static_assert(ErrorLog::kSlots < kSlotMask);

constexpr std::array<const char*, SCOMM_ERR_LASTCODE + 1> kClassTexts{
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
    "SCOMM_ERR_TOPOLOGY: the communicator has no virtual topology of that kind",
    "SCOMM_ERR_LASTCODE: unknown error",
};

// The C constants and the C++ classes are one numbering; a new class must be added to both.
static_assert(static_cast<int>(ErrorClass::kGroup) == SCOMM_ERR_GROUP);
static_assert(static_cast<int>(ErrorClass::kRank) == SCOMM_ERR_RANK);
static_assert(static_cast<int>(ErrorClass::kArg) == SCOMM_ERR_ARG);
static_assert(static_cast<int>(ErrorClass::kComm) == SCOMM_ERR_COMM);
static_assert(static_cast<int>(ErrorClass::kTag) == SCOMM_ERR_TAG);
static_assert(static_cast<int>(ErrorClass::kCount) == SCOMM_ERR_COUNT);
static_assert(static_cast<int>(ErrorClass::kTruncate) == SCOMM_ERR_TRUNCATE);
static_assert(static_cast<int>(ErrorClass::kRoot) == SCOMM_ERR_ROOT);
static_assert(static_cast<int>(ErrorClass::kOp) == SCOMM_ERR_OP);
static_assert(static_cast<int>(ErrorClass::kType) == SCOMM_ERR_TYPE);
static_assert(static_cast<int>(ErrorClass::kRequest) == SCOMM_ERR_REQUEST);
static_assert(static_cast<int>(ErrorClass::kBuffer) == SCOMM_ERR_BUFFER);
static_assert(static_cast<int>(ErrorClass::kNoMem) == SCOMM_ERR_NO_MEM);
static_assert(static_cast<int>(ErrorClass::kContext) == SCOMM_ERR_CONTEXT);
static_assert(static_cast<int>(ErrorClass::kNotSupported) == SCOMM_ERR_NOT_SUPPORTED);
static_assert(static_cast<int>(ErrorClass::kIntern) == SCOMM_ERR_INTERN);
static_assert(static_cast<int>(ErrorClass::kTopology) == SCOMM_ERR_TOPOLOGY);
static_assert(static_cast<int>(ErrorClass::kLast) == SCOMM_ERR_LASTCODE);
static_assert(SCOMM_ERR_LASTCODE <= kClassMask);

}  // namespace

int error_class_of(int code) noexcept {
  const int error_class = code & kClassMask;
  const int slot_field = (code >> kClassBits) & kSlotMask;
  const bool bare_class = (code >> kClassBits) == 0;  // SCOMM_ERR_RANK is itself a code
  // A recorded code has a slot field of 1..kSlots and an error class; a code that scomm never
  // issued (one of another library, a made-up one) is none.
  if (code < 0 || error_class > SCOMM_ERR_LASTCODE || slot_field > ErrorLog::kSlots ||
      (!bare_class && (slot_field == 0 || error_class == SCOMM_SUCCESS)))
    return -1;
  return error_class;
}

int ErrorLog::record(ErrorClass error_class, std::string message) {
  const int slot = next_;
  next_ = (next_ + 1) % kSlots;
  // Slot field 0 means "no message", so a bare class value (SCOMM_ERR_RANK) is itself a code.
  const auto sequence = static_cast<int>(recorded_++ & kSequenceMask);
  const int code = static_cast<int>(error_class) | ((slot + 1) << kClassBits) |
                   (sequence << (kClassBits + kSlotBits));
  messages_[static_cast<std::size_t>(slot)] = std::move(message);
  codes_[static_cast<std::size_t>(slot)] = code;
  return code;
}

int require_known_code(int code) {
  const int error_class = error_class_of(code);
  if (error_class < 0) throw Error(ErrorClass::kArg, "unknown error code " + std::to_string(code));
  return error_class;
}

std::string ErrorLog::describe(int code) const {
  const int error_class = error_class_of(code);
  if (error_class < 0) return kClassTexts[SCOMM_ERR_LASTCODE];
  const std::string generic = kClassTexts[static_cast<std::size_t>(error_class)];
  const int slot = ((code >> kClassBits) & kSlotMask) - 1;
  if (slot < 0 || slot >= kSlots || codes_[static_cast<std::size_t>(slot)] != code) return generic;
  return generic.substr(0, generic.find(':')) + ": " + messages_[static_cast<std::size_t>(slot)];
}

}  // namespace scomm::capi

extern "C" {

int SCOMM_Error_string(int errorcode, char* string, int* resultlen) {
  using namespace scomm::capi;
  return guarded("SCOMM_Error_string", [&] {
    require(string, "string");
    require(resultlen, "resultlen");
    require_known_code(errorcode);
    copy_c_string(context().errors.describe(errorcode), SCOMM_MAX_ERROR_STRING, string, resultlen);
  });
}

int SCOMM_Error_class(int errorcode, int* errorclass) {
  using namespace scomm::capi;
  return guarded("SCOMM_Error_class", [&] {
    require(errorclass, "errorclass");
    *errorclass = require_known_code(errorcode);
  });
}

}  // extern "C"
