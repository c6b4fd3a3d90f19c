// Error classes shared by every layer. The values mirror the C API's SCOMM_ERR_* codes so that an
// exception thrown in C++ turns into the matching MPI-style error code without a table.
#pragma once

#include <exception>
#include <new>
#include <stdexcept>
#include <string>

namespace scomm {

enum class ErrorClass : int {
  kSuccess = 0,
  kGroup = 1,     // invalid or freed group handle
  kRank = 2,      // rank out of range or duplicated
  kArg = 3,       // other invalid argument (stride 0, n < 0, range out of bounds, ...)
  kComm = 4,      // invalid or freed communicator
  kTag = 5,       // tag above the published limit or negative
  kCount = 6,     // invalid count
  kTruncate = 7,  // receive buffer too small
  kRoot = 8,      // invalid or mismatched root
  kOp = 9,        // invalid reduction operation
  kType = 10,     // invalid datatype
  kRequest = 11,  // invalid request
  kBuffer = 12,   // invalid buffer (null with count > 0, wrong aliasing)
  kNoMem = 13,    // out of memory or of a fixed resource
  kContext = 14,  // out of contexts / separation cannot be guaranteed
  kNotSupported = 15,
  kIntern = 16,    // internal error of scomm or of the base MPI
  kTopology = 17,  // a topology call on a communicator without that virtual topology
  kLast = 18,
};

// Thrown by the C++ layers; the C API catches it and reports an error code with this message.
class Error : public std::runtime_error {
 public:
  Error(ErrorClass error_class, const std::string& message)
      : std::runtime_error(message), class_(error_class) {}
  ErrorClass error_class() const noexcept { return class_; }

 private:
  ErrorClass class_;
};

// The class a failure is reported with (as the C API reports what it catches).
inline ErrorClass error_class_of(const std::exception_ptr& failure) noexcept {
  try {
    std::rethrow_exception(failure);
  } catch (const Error& e) {
    return e.error_class();
  } catch (const std::bad_alloc&) {
    return ErrorClass::kNoMem;
  } catch (...) {
    return ErrorClass::kIntern;
  }
}

}  // namespace scomm
