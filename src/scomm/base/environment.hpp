// Settings scomm reads from the environment at SCOMM_Init. Pure C++ (no MPI).
#pragma once

#include <cstdlib>
#include <string>
#include <string_view>

#include "scomm/base/error.hpp"

namespace scomm::base {

// The variable's value, or nullptr when it is unset or empty.
inline const char* setting(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : nullptr;
}

// An on/off variable: `when_unset` if it is unset or empty; Error(kArg) for any other value.
inline bool switched_on(const char* name, bool when_unset) {
  const char* value = setting(name);
  if (value == nullptr) return when_unset;
  if (std::string_view(value) == "on") return true;
  if (std::string_view(value) == "off") return false;
  throw Error(ErrorClass::kArg, std::string(name) + ": '" + value + "' is not on or off");
}

}  // namespace scomm::base
