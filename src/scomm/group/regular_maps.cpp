// Out-of-line members of the constant-size regular maps (sequential decoders and inverses).
#include "scomm/group/direct_map.hpp"
#include "scomm/group/offset_map.hpp"
#include "scomm/group/stride_block_map.hpp"
#include "scomm/group/stride_map.hpp"

namespace scomm::group {

void DirectMap::decode(Rank first, std::span<Rank> out) const noexcept {
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = first + static_cast<Rank>(i);
}

void OffsetMap::decode(Rank first, std::span<Rank> out) const noexcept {
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = offset_ + first + static_cast<Rank>(i);
}

Rank StrideMap::rank_of(Rank world) const noexcept {
  const std::int64_t d = static_cast<std::int64_t>(world) - offset_;
  if (d % stride_ != 0) return kUndefined;
  const std::int64_t r = d / stride_;
  return r >= 0 && r < n_ ? static_cast<Rank>(r) : kUndefined;
}

void StrideMap::decode(Rank first, std::span<Rank> out) const noexcept {
  std::int64_t v = offset_ + first * stride_;
  for (auto& x : out) {
    x = static_cast<Rank>(v);
    v += stride_;
  }
}

Rank StrideBlockMap::rank_of(Rank world) const noexcept {
  const std::int64_t d = static_cast<std::int64_t>(world) - offset_;
  if (d < 0) return kUndefined;
  const std::int64_t b = d / stride_;
  const std::int64_t within = d % stride_;
  if (within >= block_) return kUndefined;
  const std::int64_t r = b * block_ + within;
  return r < n_ ? static_cast<Rank>(r) : kUndefined;
}

void StrideBlockMap::decode(Rank first, std::span<Rank> out) const noexcept {
  Rank within = first % block_;
  std::int64_t start = offset_ + (first / block_) * stride_;
  for (auto& x : out) {
    x = static_cast<Rank>(start + within);
    if (++within == block_) {
      within = 0;
      start += stride_;
    }
  }
}

std::optional<Box> StrideBlockMap::as_box() const noexcept {
  const BoxDim dims[2] = {{block_, 1}, {n_ / block_, static_cast<std::int32_t>(stride_)}};
  return Box::make(offset_, dims, 2);
}

}  // namespace scomm::group
