#include "scomm/group/progression_algebra.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace scomm::group {
namespace {

// A progression as low member, positive step and high member (step 1 for a single member).
struct Span {
  std::int64_t low, step, high;
};

Span span_of(const Box& box) {
  if (box.ndims() == 0) return {box.base(), 1, box.base()};
  const std::int64_t stride = box.dim(0).stride;
  const std::int64_t last = box.base() + stride * (box.size() - 1);
  return {std::min<std::int64_t>(box.base(), last), std::abs(stride),
          std::max<std::int64_t>(box.base(), last)};
}

// x with (a * x) % m == 1, for gcd(a, m) == 1 (extended Euclid).
std::int64_t inverse_mod(std::int64_t a, std::int64_t m) {
  std::int64_t old_r = a % m, r = m, old_s = 1, s = 0;
  while (r != 0) {
    const std::int64_t q = old_r / r;
    old_r = std::exchange(r, old_r - q * r);
    old_s = std::exchange(s, old_s - q * s);
  }
  return ((old_s % m) + m) % m;
}

std::int64_t floor_mod(std::int64_t x, std::int64_t m) {
  return ((x % m) + m) % m;
}

}  // namespace

std::optional<Box> intersect_progressions(const Box& a, const Box& b) {
  if (a.ndims() > 1 || b.ndims() > 1) return std::nullopt;
  if (a.size() == 0 || b.size() == 0) return Box();
  const Span x = span_of(a), y = span_of(b);
  // Common members: v = x.low (mod x.step), v = y.low (mod y.step), by the Chinese remainder
  // theorem one residue modulo lcm when the difference is divisible by the gcd.
  const std::int64_t g = std::gcd(x.step, y.step);
  const std::int64_t difference = y.low - x.low;
  if (floor_mod(difference, g) != 0) return Box();
  const std::int64_t reduced = y.step / g;
  const std::int64_t lcm = x.step * reduced;
  const std::int64_t t =
      reduced == 1
          ? 0
          : floor_mod((difference / g) % reduced * inverse_mod(x.step / g % reduced, reduced),
                      reduced);
  const std::int64_t residue = x.low + x.step * t;
  const std::int64_t low = std::max(x.low, y.low), high = std::min(x.high, y.high);
  const std::int64_t first = low + floor_mod(residue - low, lcm);
  if (first > high) return Box();
  const auto count = static_cast<Rank>((high - first) / lcm + 1);
  const bool descending = a.ndims() == 1 && a.dim(0).stride < 0;
  const std::int64_t last = first + (count - 1) * lcm;
  return descending ? Box::progression(last, count, -lcm) : Box::progression(first, count, lcm);
}

}  // namespace scomm::group
