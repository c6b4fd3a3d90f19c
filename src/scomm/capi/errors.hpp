// MPI-style error codes, as MPICH builds them: an error code packs its class (low 8 bits), the
// slot of its detailed message in a small ring (7 bits) and a sequence number (16 bits), so
// SCOMM_Error_string can name the call and the bad value, SCOMM_Error_class recovers the class
// with a mask, and a code whose slot was reused gives the class's generic text, never another
// error's message.
#pragma once

#include <array>
#include <string>

#include "scomm/base/error.hpp"

namespace scomm::capi {

// The class of an error code, or -1 when `code` cannot be a scomm error code.
int error_class_of(int code) noexcept;
// The class of `code`; an unknown code is an argument error (SCOMM_ERR_ARG), as in Open MPI.
int require_known_code(int code);

// Recent detailed error messages, a ring of kSlots.
class ErrorLog {
 public:
  static constexpr int kSlots = 64;
  // A new error code of `error_class` whose text is `message`.
  int record(ErrorClass error_class, std::string message);
  // "CLASS: message" of `code` while its slot still holds it, else the class's generic text.
  std::string describe(int code) const;

 private:
  std::array<std::string, kSlots> messages_;
  std::array<int, kSlots> codes_{};
  int next_ = 0;           // slot of the next message
  unsigned recorded_ = 0;  // messages recorded so far; its low bits make codes unique
};

}  // namespace scomm::capi
