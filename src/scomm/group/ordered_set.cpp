#include "scomm/group/ordered_set.hpp"

namespace scomm::group {

void OrderedSet::decode(Rank first, std::span<Rank> out) const noexcept {
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = select(first + static_cast<Rank>(k));
}

}  // namespace scomm::group
