#include "scomm/context/tag_layout.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>

#include "scomm/base/error.hpp"

namespace scomm::context {

TagLayout TagLayout::from_tag_ub(int tag_ub, int user_bits) {
  // Tags 0 .. 2^tag_bits - 1 all fit under tag_ub.
  const int tag_bits =
      static_cast<int>(std::bit_width(static_cast<std::uint64_t>(std::max(tag_ub, 0)) + 1)) - 1;
  if (user_bits < kMinUserBits || tag_bits - user_bits < 1)
    throw Error(ErrorClass::kNotSupported, "MPI_TAG_UB " + std::to_string(tag_ub) +
                                               " leaves no room for " + std::to_string(user_bits) +
                                               " user tag bits and a context prefix");
  TagLayout layout;
  layout.user_bits_ = user_bits;
  layout.prefix_bits_ = tag_bits - user_bits;
  return layout;
}

}  // namespace scomm::context
