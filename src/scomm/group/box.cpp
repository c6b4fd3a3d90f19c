#include "scomm/group/box.hpp"

#include <algorithm>
#include <limits>

namespace scomm::group {
namespace {

struct WideDim {
  std::int64_t count;
  std::int64_t stride;
};

// Drops unit dimensions and merges a dimension into the next faster one when it continues it
// (stride == count * faster stride), so every box has one canonical form. Returns the number of
// dimensions, -1 when there are too many, and sets `empty` when some count is 0.
int canonical_dims(const std::int64_t* counts, const std::int64_t* strides, int n,
                   std::array<WideDim, kMaxBoxDims>& out, bool& empty) {
  int m = 0;
  empty = false;
  for (int k = 0; k < n; ++k) {
    if (counts[k] == 0) empty = true;
    if (counts[k] <= 1) continue;
    auto& prev = out[static_cast<std::size_t>(m > 0 ? m - 1 : 0)];
    if (m > 0 && strides[k] == prev.count * prev.stride) {
      prev.count *= counts[k];
      continue;
    }
    if (m == kMaxBoxDims) return -1;
    out[static_cast<std::size_t>(m++)] = {counts[k], strides[k]};
  }
  return m;
}

}  // namespace

std::optional<Box> Box::make(std::int64_t base, const BoxDim* dims, int ndims) {
  std::array<std::int64_t, kMaxBoxDims + 1> counts{};
  std::array<std::int64_t, kMaxBoxDims + 1> strides{};
  if (ndims > kMaxBoxDims + 1) return std::nullopt;
  for (int k = 0; k < ndims; ++k) {
    counts[static_cast<std::size_t>(k)] = dims[k].count;
    strides[static_cast<std::size_t>(k)] = dims[k].stride;
  }
  return make_wide(base, counts.data(), strides.data(), ndims);
}

std::optional<Box> Box::make_wide(std::int64_t base, const std::int64_t* counts,
                                  const std::int64_t* strides, int ndims) {
  std::array<WideDim, kMaxBoxDims> canon{};
  bool empty = false;
  std::int64_t size = 1;
  for (int k = 0; k < ndims; ++k) {
    if (counts[k] < 0) return std::nullopt;
    size = std::min(size * counts[k], kMaxValue + 1);
  }
  const int m = canonical_dims(counts, strides, ndims, canon, empty);
  if (empty) return Box();
  if (m < 0 || size > kMaxValue || base < 0 || base > kMaxValue) return std::nullopt;
  Box box;
  box.base_ = static_cast<Rank>(base);
  box.size_ = static_cast<Rank>(size);
  box.ndims_ = static_cast<std::uint8_t>(m);
  for (int k = 0; k < m; ++k) {
    const WideDim& d = canon[static_cast<std::size_t>(k)];
    if (std::abs(d.stride) > kMaxValue) return std::nullopt;
    box.dims_[static_cast<std::size_t>(k)] = {static_cast<Rank>(d.count),
                                              static_cast<std::int32_t>(d.stride)};
  }
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
    const std::int64_t span = static_cast<std::int64_t>(d.count - 1) * d.stride;
    (span < 0 ? low : high) += span;
  }
  if (low < 0 || high > kMaxValue) return false;
  inverse_base_ = static_cast<Rank>(low);
  for (std::uint8_t k = 0; k < ndims_; ++k) inverse_order_[k] = k;
  std::sort(inverse_order_.begin(), inverse_order_.begin() + ndims_,
            [&](auto a, auto b) { return std::abs(dims_[a].stride) > std::abs(dims_[b].stride); });
  std::int64_t inner_span = 0;
  for (int k = ndims_ - 1; k >= 0; --k) {
    const BoxDim& d = dims_[inverse_order_[static_cast<std::size_t>(k)]];
    const std::int64_t stride = std::abs(static_cast<std::int64_t>(d.stride));
    if (stride <= inner_span) return false;
    inner_span += (d.count - 1) * stride;
  }
  return true;
}

Rank Box::value_of_digits(Rank r) const noexcept {
  std::int64_t v = base_;
  for (int k = 0; k + 1 < ndims_; ++k) {
    const BoxDim& d = dims_[static_cast<std::size_t>(k)];
    v += static_cast<std::int64_t>(r % d.count) * d.stride;
    r /= d.count;
  }
  if (ndims_ > 0)
    v += static_cast<std::int64_t>(r) * dims_[static_cast<std::size_t>(ndims_ - 1)].stride;
  return static_cast<Rank>(v);
}

Rank Box::index_by_digits(Rank world) const noexcept {
  if (size_ == 0) return kUndefined;
  std::int64_t rest = static_cast<std::int64_t>(world) - inverse_base_;
  if (rest < 0) return kUndefined;
  std::array<Rank, kMaxBoxDims> digit{};
  for (int k = 0; k < ndims_; ++k) {
    const std::size_t dim = inverse_order_[static_cast<std::size_t>(k)];
    const BoxDim& d = dims_[dim];
    const std::int64_t step = std::abs(static_cast<std::int64_t>(d.stride));
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

std::optional<Box> Box::compose(const Box& child) const {
  if (child.size_ == 0) return Box();
  if (ndims_ > 1) return std::nullopt;
  const std::int64_t step = ndims_ == 1 ? dims_[0].stride : 1;
  if (child.ndims_ <= 1) {  // a progression of a progression, the common case, directly
    const auto terms = compose_progression(child.base_, child.size_,
                                           child.ndims_ == 1 ? child.dims_[0].stride : 0);
    return terms ? std::optional(Box(*terms)) : std::nullopt;
  }
  std::array<std::int64_t, kMaxBoxDims> counts{};
  std::array<std::int64_t, kMaxBoxDims> strides{};
  for (std::size_t k = 0; k < child.ndims_; ++k) {
    counts[k] = child.dims_[k].count;
    strides[k] = child.dims_[k].stride * step;
  }
  return make_wide(base_ + child.base_ * step, counts.data(), strides.data(), child.ndims_);
}

bool Box::ascending() const noexcept {
  std::int64_t inner_span = 0;
  for (int k = 0; k < ndims_; ++k) {
    const BoxDim& d = dims_[static_cast<std::size_t>(k)];
    if (d.stride <= inner_span) return false;
    inner_span += static_cast<std::int64_t>(d.count - 1) * d.stride;
  }
  return true;
}

BoxKind Box::kind() const noexcept {
  if (ndims_ == 0 && size_ == 0) return BoxKind::kEmpty;
  if (ndims_ == 0 || (ndims_ == 1 && dims_[0].stride == 1))
    return base_ == 0 ? BoxKind::kDirect : BoxKind::kOffset;
  if (ndims_ == 1) return BoxKind::kStride;
  if (ndims_ == 2 && dims_[0].stride == 1 && dims_[1].stride > 0) return BoxKind::kStrideBlock;
  return BoxKind::kBox;
}

std::string_view box_kind_name(BoxKind kind) noexcept {
  switch (kind) {
    case BoxKind::kEmpty:
      return "empty";
    case BoxKind::kDirect:
      return "direct";
    case BoxKind::kOffset:
      return "offset";
    case BoxKind::kStride:
      return "stride";
    case BoxKind::kStrideBlock:
      return "stride-block";
    case BoxKind::kBox:
      break;
  }
  return "box";
}

}  // namespace scomm::group
