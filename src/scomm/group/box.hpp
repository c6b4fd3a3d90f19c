// A regular pattern: a sub-box of a Cartesian grid laid over world ranks.
//
//   value(r) = base + sum_k digit_k(r) * dims[k].stride,
//
// where digit_0 is the fastest-varying mixed-radix digit of r with radices dims[k].count. With one
// dimension this is the offset/stride pattern, with two (inner stride 1) AV-Rankmap's stride-block,
// with more the rows, columns and planes of Cartesian communicators. Boxes are closed under
// composition with affine parents, which is why the group layer keeps every regular pattern here.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string_view>

#include "scomm/group/rank.hpp"

namespace scomm::group {

struct BoxDim {
  Rank count = 1;
  std::int32_t stride = 0;  // |stride| < 2^31 since every value lies in [0, 2^31)
  friend bool operator==(const BoxDim&, const BoxDim&) = default;
};

// Four dimensions cover every Cartesian sub-box up to 4-D (more after merging contiguous
// dimensions) and keep a box map within 64 bytes.
inline constexpr int kMaxBoxDims = 4;

// The most specific name of a regular pattern; each has its own constant-size map.
enum class BoxKind { kEmpty, kDirect, kOffset, kStride, kStrideBlock, kBox };
std::string_view box_kind_name(BoxKind kind) noexcept;

// A one-dimensional progression base, base + stride, ... (count terms).
struct Progression {
  std::int64_t base = 0;
  Rank count = 0;
  std::int64_t stride = 1;
};

class Box {
 public:
  Box() = default;
  // The box of a progression; an empty box when the progression leaves [0, 2^31). Inline and a
  // constructor, so that local creation builds its child's box straight in the child's channel.
  [[gnu::always_inline]] explicit inline Box(const Progression& terms);
  static Box progression(std::int64_t base, Rank count, std::int64_t stride) {
    return Box(Progression{base, count, stride});
  }
  // Builds a box from dimensions listed fastest first; returns nullopt when the result would not
  // be injective and invertible by the greedy digit decomposition (see index_of), when a value
  // leaves [0, 2^31), or when more than kMaxBoxDims dimensions remain after normalization.
  static std::optional<Box> make(std::int64_t base, const BoxDim* dims, int ndims);
  // As make(), from strides that may not fit 32 bits (e.g. products during composition).
  static std::optional<Box> make_wide(std::int64_t base, const std::int64_t* counts,
                                      const std::int64_t* strides, int ndims);

  Rank size() const noexcept { return size_; }
  int ndims() const noexcept { return ndims_; }
  const BoxDim& dim(int k) const noexcept { return dims_[static_cast<std::size_t>(k)]; }
  std::int64_t base() const noexcept { return base_; }

  // Inline fast paths for progressions and contiguous ranges: every point-to-point call
  // translates a rank through them.
  Rank value(Rank r) const noexcept {
    if (ndims_ > 1) return value_of_digits(r);
    return static_cast<Rank>(base_ + std::int64_t{r} * (ndims_ == 1 ? dims_[0].stride : 0));
  }
  // Inverse of value(), or kUndefined when `world` is not in the box.
  Rank index_of(Rank world) const noexcept {
    if (ndims_ != 1 || dims_[0].stride != 1) return index_by_digits(world);
    const std::int64_t index = std::int64_t{world} - base_;
    return index >= 0 && index < size_ ? static_cast<Rank>(index) : kUndefined;
  }
  // The box of value(child.value(r)), where `child` indexes this box; nullopt when not a box.
  std::optional<Box> compose(const Box& child) const;
  // The progression that compose(progression(first, count, stride)) is a box of, in one step
  // (local communicator creation makes one per call); nullopt when the result is not one.
  inline std::optional<Progression> compose_progression(Rank first, Rank count,
                                                        std::int64_t stride) const;

  bool ascending() const noexcept;
  BoxKind kind() const noexcept;

  friend bool operator==(const Box&, const Box&) = default;

 private:
  static constexpr std::int64_t kMaxValue = std::numeric_limits<Rank>::max();

  bool prepare_inverse();
  Rank value_of_digits(Rank r) const noexcept;
  Rank index_by_digits(Rank world) const noexcept;

  Rank base_ = 0;
  Rank size_ = 0;
  // Unused dimensions are all zero: a box is then built with wide zeroing stores, which later
  // wide copies of the box can read without a store-forwarding stall.
  std::array<BoxDim, kMaxBoxDims> dims_{BoxDim{0, 0}, BoxDim{0, 0}, BoxDim{0, 0}, BoxDim{0, 0}};
  // Dimensions sorted by decreasing |stride| with base shifted so every stride is positive; used
  // by index_of().
  Rank inverse_base_ = 0;
  std::uint8_t ndims_ = 0;
  std::array<std::uint8_t, kMaxBoxDims> inverse_order_{};
};

// The canonical form make_wide() gives a progression, built directly.
Box::Box(const Progression& terms) {
  const auto [base, count, stride] = terms;
  if (count <= 0) return;
  const std::int64_t last = base + static_cast<std::int64_t>(count - 1) * stride;
  if (base < 0 || base > kMaxValue || last < 0 || last > kMaxValue) return;
  if (count > 1 && stride == 0) return;
  base_ = static_cast<Rank>(base);
  size_ = count;
  inverse_base_ = static_cast<Rank>(std::min(base, last));
  if (count > 1) {
    ndims_ = 1;
    dims_[0] = {count, static_cast<std::int32_t>(stride)};
  }
}

// Table II of the AV-Rankmap paper and beyond: an affine parent maps every child box to a box
// (stride-of-stride and stride-of-stride-block included); other pairs are left to detection.
std::optional<Progression> Box::compose_progression(Rank first, Rank count,
                                                    std::int64_t stride) const {
  if (count == 0) return Progression{};
  if (ndims_ > 1) return std::nullopt;
  const std::int64_t step = ndims_ == 1 ? dims_[0].stride : 1;
  const std::int64_t base = base_ + first * step, composed = stride * step;
  const std::int64_t last = base + static_cast<std::int64_t>(count - 1) * composed;
  if (base < 0 || base > kMaxValue || last < 0 || last > kMaxValue ||
      std::abs(composed) > kMaxValue || (count > 1 && composed == 0))
    return std::nullopt;
  return Progression{base, count, composed};
}

}  // namespace scomm::group
