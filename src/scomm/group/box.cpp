#include "scomm/group/box.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace scomm::group {
namespace {

constexpr std::int64_t kMaxWorld = std::numeric_limits<Rank>::max();

// Drops unit dimensions and merges a dimension into the next faster one when it continues it
// (stride == count * faster stride), so every box has one canonical form.
int canonical_dims(const BoxDim* in, int n, std::array<BoxDim, kMaxBoxDims + 1>& out, bool& empty) {
  int m = 0;
  empty = false;
  for (int k = 0; k < n; ++k) {
    const BoxDim d = in[k];
    if (d.count == 0) empty = true;
    if (d.count <= 1) continue;
    if (m > 0 && d.stride == out[m - 1].count * out[m - 1].stride) {
      out[m - 1].count *= d.count;
      continue;
    }
    if (m == kMaxBoxDims) return -1;
    out[static_cast<std::size_t>(m++)] = d;
  }
  return m;
}

}  // namespace

Box Box::progression(std::int64_t base, Rank count, std::int64_t stride) {
  const BoxDim dim{count, stride};
  auto box = make(base, &dim, 1);
  return box ? *box : Box();
}

std::optional<Box> Box::make(std::int64_t base, const BoxDim* dims, int ndims) {
  std::array<BoxDim, kMaxBoxDims + 1> canon{};
  bool empty = false;
  for (int k = 0; k < ndims; ++k)
    if (dims[k].count < 0) return std::nullopt;
  const int m = canonical_dims(dims, ndims, canon, empty);
  if (empty) return Box();
  if (m < 0) return std::nullopt;
  Box box;
  box.base_ = base;
  box.ndims_ = m;
  std::int64_t size = 1;
  for (int k = 0; k < m; ++k) {
    box.dims_[static_cast<std::size_t>(k)] = canon[static_cast<std::size_t>(k)];
    size *= canon[static_cast<std::size_t>(k)].count;
    if (size > kMaxWorld) return std::nullopt;
  }
  box.size_ = static_cast<Rank>(size);
  if (!box.prepare_inverse()) return std::nullopt;
  return box;
}

// Reflects negative strides, sorts by decreasing stride and checks that every stride exceeds the
// span of all smaller ones: then the greedy digit decomposition in index_of() is exact and the
// box is injective. Also checks that every value lies in [0, 2^31).
bool Box::prepare_inverse() {
  std::int64_t low = base_;
  std::int64_t high = base_;
  for (int k = 0; k < ndims_; ++k) {
    const BoxDim& d = dims_[static_cast<std::size_t>(k)];
    const std::int64_t span = (d.count - 1) * d.stride;
    (span < 0 ? low : high) += span;
  }
  if (low < 0 || high > kMaxWorld) return false;
  inverse_base_ = low;
  std::iota(inverse_order_.begin(), inverse_order_.begin() + ndims_, std::uint8_t{0});
  std::sort(inverse_order_.begin(), inverse_order_.begin() + ndims_, [&](auto a, auto b) {
    return std::abs(dims_[a].stride) > std::abs(dims_[b].stride);
  });
  std::int64_t inner_span = 0;
  for (int k = ndims_ - 1; k >= 0; --k) {
    const BoxDim& d = dims_[inverse_order_[static_cast<std::size_t>(k)]];
    const std::int64_t stride = std::abs(d.stride);
    if (stride <= inner_span) return false;
    inner_span += (d.count - 1) * stride;
  }
  return true;
}

Rank Box::value(Rank r) const noexcept {
  std::int64_t v = base_;
  for (int k = 0; k + 1 < ndims_; ++k) {
    const BoxDim& d = dims_[static_cast<std::size_t>(k)];
    v += (r % d.count) * d.stride;
    r /= d.count;
  }
  if (ndims_ > 0) v += r * dims_[static_cast<std::size_t>(ndims_ - 1)].stride;
  return static_cast<Rank>(v);
}

Rank Box::index_of(Rank world) const noexcept {
  if (size_ == 0) return kUndefined;
  std::int64_t rest = static_cast<std::int64_t>(world) - inverse_base_;
  if (rest < 0) return kUndefined;
  std::array<Rank, kMaxBoxDims> digit{};
  for (int k = 0; k < ndims_; ++k) {
    const std::size_t dim = inverse_order_[static_cast<std::size_t>(k)];
    const BoxDim& d = dims_[dim];
    const std::int64_t step = std::abs(d.stride);
    const std::int64_t q = rest / step;
    if (q >= d.count) return kUndefined;
    rest -= q * step;
    digit[dim] = static_cast<Rank>(d.stride < 0 ? d.count - 1 - q : q);
  }
  if (rest != 0) return kUndefined;
  std::int64_t index = 0;
  for (int k = ndims_ - 1; k >= 0; --k)
    index = index * dims_[static_cast<std::size_t>(k)].count + digit[static_cast<std::size_t>(k)];
  return static_cast<Rank>(index);
}

// Table II of the AV-Rankmap paper and beyond: an affine parent maps every child box to a box
// (stride-of-stride and stride-of-stride-block included); other pairs are left to detection.
std::optional<Box> Box::compose(const Box& child) const {
  if (child.size_ == 0) return Box();
  if (ndims_ > 1) return std::nullopt;
  const std::int64_t step = ndims_ == 1 ? dims_[0].stride : 1;
  std::array<BoxDim, kMaxBoxDims> scaled{};
  for (int k = 0; k < child.ndims_; ++k) {
    const BoxDim& d = child.dims_[static_cast<std::size_t>(k)];
    scaled[static_cast<std::size_t>(k)] = BoxDim{d.count, d.stride * step};
  }
  return make(base_ + child.base_ * step, scaled.data(), child.ndims_);
}

bool Box::ascending() const noexcept {
  std::int64_t inner_span = 0;
  for (int k = 0; k < ndims_; ++k) {
    const BoxDim& d = dims_[static_cast<std::size_t>(k)];
    if (d.stride <= inner_span) return false;
    inner_span += (d.count - 1) * d.stride;
  }
  return true;
}

std::string_view Box::kind() const noexcept {
  if (ndims_ == 0) return size_ == 0 ? "empty" : (base_ == 0 ? "direct" : "offset");
  if (ndims_ == 1 && dims_[0].stride == 1) return base_ == 0 ? "direct" : "offset";
  if (ndims_ == 1) return "stride";
  if (ndims_ == 2 && dims_[0].stride == 1 && dims_[1].stride > 0) return "stride-block";
  return "box";
}

}  // namespace scomm::group
