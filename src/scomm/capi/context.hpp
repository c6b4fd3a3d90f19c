// The library context: the one object that holds scomm's mutable state (handle tables, the map
// strategy, recent error messages). The C API reaches it only through context(), so a runtime
// that runs many ranks in one process (SimGrid SMPI) can give each rank its own.
#pragma once

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "scomm/base/error.hpp"
#include "scomm/capi/errors.hpp"
#include "scomm/capi/handle_table.hpp"
#include "scomm/comm/runtime.hpp"
#include "scomm/group/group.hpp"

namespace scomm::capi {

struct Context {
  static constexpr int kFirstGroupHandle = 2;  // 0 = SCOMM_GROUP_NULL, 1 = SCOMM_GROUP_EMPTY

  HandleTable<group::Group> groups{kFirstGroupHandle};
  group::Group empty_group;
  group::MapPolicy map_policy;
  ErrorLog errors;
  std::unique_ptr<comm::Runtime> runtime;  // between SCOMM_Init and SCOMM_Finalize
};

// The runtime, or Error(kArg) when SCOMM_Init has not been called.
comm::Runtime& runtime();

Context& context();

// The error code of a failure of `function`, its message kept for SCOMM_Error_string; the bare
// class when even the message cannot be stored (out of memory).
int report(ErrorClass error_class, const char* function, const char* what) noexcept;

// Runs `body`; a scomm::Error or std::bad_alloc becomes an error code naming `function`.
template <typename Body>
int guarded(const char* function, Body&& body) noexcept {
  try {
    body();
    return 0;
  } catch (const Error& e) {
    return report(e.error_class(), function, e.what());
  } catch (const std::bad_alloc&) {
    return report(ErrorClass::kNoMem, function, "out of memory");
  } catch (const std::exception& e) {
    return report(ErrorClass::kIntern, function, e.what());
  }
}

// Throws Error(kArg) when a required output or input pointer is null.
template <typename T>
void require(T* pointer, const char* what) {
  if (pointer == nullptr) throw Error(ErrorClass::kArg, std::string("null pointer for ") + what);
}

// Copies `text` into a C buffer of `capacity` bytes, cut to fit and NUL-terminated, as MPI's
// *_get_name and Error_string do.
inline void copy_c_string(std::string_view text, std::size_t capacity, char* out, int* length) {
  const std::size_t n = std::min(text.size(), capacity - 1);
  std::memcpy(out, text.data(), n);
  out[n] = '\0';
  *length = static_cast<int>(n);
}

}  // namespace scomm::capi
