// A non-owning reference to a callable, for a callback that does not outlive the call taking it
// (C++26's std::function_ref): unlike std::function, making one never allocates.
#pragma once

#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace scomm::base {

template <typename Signature>
class FunctionRef;

template <typename R, typename... Args>
class FunctionRef<R(Args...)> {
 public:
  template <typename F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, FunctionRef> &&
           std::is_invocable_r_v<R, F&, Args...>) FunctionRef(F&& callable)
  noexcept  // NOLINT(google-explicit-constructor): used like a lambda
      : callable_(const_cast<void*>(static_cast<const void*>(std::addressof(callable)))),
        call_([](void* c, Args... args) -> R {
          return std::invoke(*static_cast<std::remove_reference_t<F>*>(c),
                             std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return call_(callable_, std::forward<Args>(args)...); }

 private:
  void* callable_;
  R (*call_)(void*, Args...);
};

}  // namespace scomm::base
