#include "scomm/group/rank_map.hpp"

namespace scomm::group {

void RankMap::decode(Rank first, std::span<Rank> out) const noexcept {
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = select(first + static_cast<Rank>(i));
}

void RankMap::translate(std::span<const Rank> ranks, std::span<Rank> out) const noexcept {
  for (std::size_t i = 0; i < ranks.size(); ++i) out[i] = select(ranks[i]);
}

}  // namespace scomm::group
