#include "scomm/topo/level_model.hpp"

#include <memory>

namespace scomm::topo {

coll::LevelModel level_model(const Levels& levels, const LevelCosts& costs) {
  const auto shared = std::make_shared<const Levels>(levels);
  std::vector<coll::LevelModel::Level> inner_first;
  for (int l = levels.depth() - 1; l >= 0; --l)
    inner_first.push_back({[shared, l](int rank) { return std::int64_t{shared->color(rank, l)}; },
                           costs.link(l + 1)});
  return coll::LevelModel(std::move(inner_first), costs.link(0));
}

}  // namespace scomm::topo
