#include "scomm/context/held_ids.hpp"

#include "scomm/base/error.hpp"

namespace scomm::context {

HeldIds::HeldIds(ContextId capacity, int block_bits)
    : block_bits_(block_bits), bits_((std::size_t{capacity} + 63) / 64, 0) {
  if (block_bits < 0 || block_bits > 6)
    throw Error(ErrorClass::kArg,
                "derivation bits must be 0..6, got " + std::to_string(block_bits));
}

}  // namespace scomm::context
