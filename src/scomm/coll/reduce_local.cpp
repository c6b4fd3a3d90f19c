#include "scomm/coll/reduce_local.hpp"

#include <type_traits>

namespace scomm::coll {
namespace {

enum class Arithmetic : std::uint8_t { kSum, kProd, kMin, kMax };

// Integers add and multiply as their unsigned twins: wrapping, as MPI implementations do,
// without the undefined behaviour of signed overflow.
template <typename T>
T add(T a, T b) noexcept {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

template <typename T>
T multiply(T a, T b) noexcept {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}

template <typename T, typename Combine>
void combine_all(const void* in, void* inout, std::int64_t count, Combine combine) noexcept {
  const T* from = static_cast<const T*>(in);
  T* to = static_cast<T*>(inout);
  for (std::int64_t i = 0; i < count; ++i) to[i] = combine(from[i], to[i]);
}

// Min and max take the input's element only where it is strictly smaller (larger): ties and
// unordered (NaN) pairs keep the inout element, as Open MPI 4.1's vectorized loops on x86 do.
template <typename T>
bool reduce_as(Arithmetic arithmetic, const void* in, void* inout, std::int64_t count,
               bool any_length = false) noexcept {
  if (!any_length && count > kReduceOwnLoopMaxBytes / static_cast<std::int64_t>(sizeof(T)))
    return false;
  switch (arithmetic) {
    case Arithmetic::kSum:
      combine_all<T>(in, inout, count, [](T a, T b) { return add(a, b); });
      break;
    case Arithmetic::kProd:
      combine_all<T>(in, inout, count, [](T a, T b) { return multiply(a, b); });
      break;
    case Arithmetic::kMin:
      combine_all<T>(in, inout, count, [](T a, T b) { return a < b ? a : b; });
      break;
    case Arithmetic::kMax:
      combine_all<T>(in, inout, count, [](T a, T b) { return a > b ? a : b; });
      break;
  }
  return true;
}

bool arithmetic_of(MPI_Op op, Arithmetic& arithmetic) noexcept {
  if (op == MPI_SUM)
    arithmetic = Arithmetic::kSum;
  else if (op == MPI_PROD)
    arithmetic = Arithmetic::kProd;
  else if (op == MPI_MIN)
    arithmetic = Arithmetic::kMin;
  else if (op == MPI_MAX)
    arithmetic = Arithmetic::kMax;
  else
    return false;
  return true;
}

}  // namespace

bool reduce_predefined(MPI_Op op, MPI_Datatype type, const void* in, void* inout,
                       std::int64_t count) noexcept {
  Arithmetic a{};
  if (!arithmetic_of(op, a)) return false;
  if (type == MPI_DOUBLE) return reduce_as<double>(a, in, inout, count);
  if (type == MPI_FLOAT) return reduce_as<float>(a, in, inout, count);
  if (type == MPI_INT) return reduce_as<int>(a, in, inout, count);
  if (type == MPI_UNSIGNED) return reduce_as<unsigned>(a, in, inout, count);
  if (type == MPI_LONG) return reduce_as<long>(a, in, inout, count);
  if (type == MPI_UNSIGNED_LONG) {
    // Debian's Open MPI 4.1.4 orders these as signed in min and max (1 < ULONG_MAX is false
    // there): scomm's loops take those at any length.
    const bool ordered = a == Arithmetic::kMin || a == Arithmetic::kMax;
    return reduce_as<unsigned long>(a, in, inout, count, ordered);
  }
  if (type == MPI_LONG_LONG) return reduce_as<long long>(a, in, inout, count);
  if (type == MPI_UNSIGNED_LONG_LONG) return reduce_as<unsigned long long>(a, in, inout, count);
  if (type == MPI_INT32_T) return reduce_as<std::int32_t>(a, in, inout, count);
  if (type == MPI_UINT32_T) return reduce_as<std::uint32_t>(a, in, inout, count);
  if (type == MPI_INT64_T) return reduce_as<std::int64_t>(a, in, inout, count);
  if (type == MPI_UINT64_T) return reduce_as<std::uint64_t>(a, in, inout, count);
  return false;
}

}  // namespace scomm::coll
