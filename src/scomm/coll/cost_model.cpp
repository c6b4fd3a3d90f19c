#include "scomm/coll/cost_model.hpp"

#include <cstddef>

namespace scomm::coll {

LevelModel LevelModel::nodes(int ranks_per_node, Link intra, Link inter, LocalCost local) {
  const int width = ranks_per_node > 0 ? ranks_per_node : 1;
  return LevelModel({{[width](int rank) { return std::int64_t{rank / width}; }, intra}}, inter,
                    local);
}

int LevelModel::level(int src, int dst) const {
  for (std::size_t i = 0; i < levels_.size(); ++i)
    if (levels_[i].cluster(src) == levels_[i].cluster(dst)) return static_cast<int>(i);
  return static_cast<int>(levels_.size());
}

Link LevelModel::link(int src, int dst) const {
  const auto i = static_cast<std::size_t>(level(src, dst));
  return i < levels_.size() ? levels_[i].link : outermost_;
}

}  // namespace scomm::coll
