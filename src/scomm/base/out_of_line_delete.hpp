// A unique_ptr deleter whose delete is never inlined. For what few objects have (a
// communicator's extras, its schedule cache): the owner's destructor then stays a null test and a
// call on a cold path, where a flattened caller (SCOMM_Comm_free) otherwise inlined each
// destructor whole and paid its stack frame on every call.
#pragma once

#include <memory>
#include <utility>

namespace scomm::base {

struct OutOfLineDelete {
  template <typename T>
  [[gnu::noinline, gnu::cold]] void operator()(T* object) const noexcept {
    delete object;
  }
};

template <typename T>
using RarePtr = std::unique_ptr<T, OutOfLineDelete>;

template <typename T, typename... Args>
RarePtr<T> make_rare(Args&&... args) {
  return RarePtr<T>(new T(std::forward<Args>(args)...));
}

}  // namespace scomm::base
