#include "scomm/group/neighborhood.hpp"

namespace scomm::group {
namespace {

Neighborhood of_grid(const CartGrid& grid, Rank rank) {
  Neighborhood neighbors;
  for (int d = 0; d < grid.ndims(); ++d) {
    const auto [below, above] = grid.shift(rank, d, 1);
    neighbors.sources.insert(neighbors.sources.end(), {below, above});
  }
  neighbors.destinations = neighbors.sources;
  neighbors.pairs_swapped = true;
  return neighbors;
}

Neighborhood of_graph(const DistGraph& graph) {
  return {graph.sources(), graph.destinations(), false};
}

}  // namespace

Neighborhood neighborhood_of(const VirtualTopology& topology, Rank rank) {
  if (const auto* grid = std::get_if<CartGrid>(&topology)) return of_grid(*grid, rank);
  return of_graph(std::get<DistGraph>(topology));
}

Degrees degrees_of(const VirtualTopology& topology) noexcept {
  if (const auto* grid = std::get_if<CartGrid>(&topology))
    return {2 * grid->ndims(), 2 * grid->ndims()};
  const auto& graph = std::get<DistGraph>(topology);
  return {static_cast<int>(graph.sources().size()), static_cast<int>(graph.destinations().size())};
}

bool has_repeated_neighbors(const VirtualTopology& topology) noexcept {
  if (const auto* grid = std::get_if<CartGrid>(&topology)) {
    for (int k = 0; k < grid->ndims(); ++k)
      if (grid->periods()[k] && grid->dims()[k] <= 2) return true;
    return false;
  }
  return std::get<DistGraph>(topology).repeats_anywhere();
}

}  // namespace scomm::group
