#include "scomm/group/dist_graph.hpp"

#include <algorithm>
#include <string>

#include "scomm/base/error.hpp"

namespace scomm::group {
namespace {

void check_neighbors(const std::vector<Rank>& neighbors, Rank size, const char* what) {
  for (const Rank neighbor : neighbors) check_rank(neighbor, size, what);
}

void check_weights(const std::vector<int>& weights, std::size_t degree, const char* what) {
  if (weights.size() != degree)
    throw Error(ErrorClass::kArg, std::string(what) + " has " + std::to_string(weights.size()) +
                                      " weights for " + std::to_string(degree) + " neighbors");
  if (std::any_of(weights.begin(), weights.end(), [](int w) { return w < 0; }))
    throw Error(ErrorClass::kArg, std::string(what) + " has a negative weight");
}

bool repeats(std::vector<Rank> ranks) {
  std::sort(ranks.begin(), ranks.end());
  return std::adjacent_find(ranks.begin(), ranks.end()) != ranks.end();
}

}  // namespace

DistGraph::DistGraph(Rank size, std::vector<Rank> sources, std::vector<int> source_weights,
                     std::vector<Rank> destinations, std::vector<int> destination_weights,
                     bool weighted)
    : sources_(std::move(sources)),
      destinations_(std::move(destinations)),
      source_weights_(weighted ? std::move(source_weights) : std::vector<int>()),
      destination_weights_(weighted ? std::move(destination_weights) : std::vector<int>()),
      weighted_(weighted) {
  check_neighbors(sources_, size, "sources");
  check_neighbors(destinations_, size, "destinations");
  if (!weighted_) return;
  check_weights(source_weights_, sources_.size(), "sourceweights");
  check_weights(destination_weights_, destinations_.size(), "destweights");
}

bool DistGraph::repeats_here() const {
  return repeats(sources_) || repeats(destinations_);
}

}  // namespace scomm::group
