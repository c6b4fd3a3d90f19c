// The library context: the one object that holds scomm's mutable state (handle tables, the map
// strategy, recent error messages). The C API reaches it only through context(), so a runtime
// that runs many ranks in one process (SimGrid SMPI) can give each rank its own.
#pragma once

#include <array>
#include <string>

#include <memory>

#include "scomm/base/error.hpp"
#include "scomm/capi/handle_table.hpp"
#include "scomm/comm/runtime.hpp"
#include "scomm/group/group.hpp"

namespace scomm::capi {

// Recent detailed error messages; an error code names its class and its message slot.
class ErrorLog {
 public:
  static constexpr int kSlots = 64;
  int record(ErrorClass error_class, std::string message);
  // The message of `code` if still held, else the class's generic text.
  std::string describe(int code) const;

 private:
  std::array<std::string, kSlots> messages_;
  std::array<int, kSlots> codes_{};
  int next_ = 0;
};

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

// Runs `body`; a scomm::Error or std::bad_alloc becomes an error code naming `function`.
template <typename Body>
int guarded(const char* function, Body&& body) noexcept {
  try {
    body();
    return 0;
  } catch (const Error& e) {
    return context().errors.record(e.error_class(), std::string(function) + ": " + e.what());
  } catch (const std::bad_alloc&) {
    return context().errors.record(ErrorClass::kNoMem, std::string(function) + ": out of memory");
  } catch (const std::exception& e) {
    return context().errors.record(ErrorClass::kIntern, std::string(function) + ": " + e.what());
  }
}

// Throws Error(kArg) when a required output or input pointer is null.
template <typename T>
void require(T* pointer, const char* what) {
  if (pointer == nullptr) throw Error(ErrorClass::kArg, std::string("null pointer for ") + what);
}

}  // namespace scomm::capi
