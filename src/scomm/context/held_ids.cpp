#include "scomm/context/held_ids.hpp"

#include "scomm/base/error.hpp"

namespace scomm::context {
namespace {

// Bits [first % 64, first % 64 + count) of one word; count <= 64.
std::uint64_t range_mask(ContextId first, ContextId count) noexcept {
  const std::uint64_t ones = count >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << count) - 1;
  return ones << (first % 64);
}

}  // namespace

HeldIds::HeldIds(ContextId capacity, int block_bits)
    : block_bits_(block_bits), bits_((std::size_t{capacity} + 63) / 64, 0) {
  if (block_bits < 0 || block_bits > 6)
    throw Error(ErrorClass::kArg,
                "derivation bits must be 0..6, got " + std::to_string(block_bits));
}

bool HeldIds::any_held(ContextId first, ContextId count) const noexcept {
  return (bits_[first / 64] & range_mask(first, count)) != 0;
}

void HeldIds::hold(ContextId id) {
  bits_[id / 64] |= range_mask(id, 1);
  ++held_;
}

bool HeldIds::release(ContextId id) noexcept {
  bits_[id / 64] &= ~range_mask(id, 1);
  --held_;
  const ContextId first = first_of_block(block_of(id));
  return !any_held(first, ContextId{1} << block_bits_);
}

}  // namespace scomm::context
