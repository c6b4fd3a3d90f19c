// One process's edges in a distributed graph topology (MPI_Dist_graph_create_adjacent): its
// in-neighbors (sources) and out-neighbors (destinations) as ranks of the communicator, each with
// an edge weight, in the order the process gave them. Repeated edges and edges to the process
// itself are allowed, as in MPI; the neighborhood collectives match a repeated edge's messages
// in list order.
#pragma once

#include <vector>

#include "scomm/group/rank.hpp"

namespace scomm::group {

class DistGraph {
 public:
  // Error(kArg) for a rank outside [0, size), a negative weight, or weights that do not number
  // as many as their neighbors (`weighted` false: both weight lists are ignored).
  DistGraph(Rank size, std::vector<Rank> sources, std::vector<int> source_weights,
            std::vector<Rank> destinations, std::vector<int> destination_weights, bool weighted);

  const std::vector<Rank>& sources() const noexcept { return sources_; }
  const std::vector<Rank>& destinations() const noexcept { return destinations_; }
  // Empty when the graph is unweighted.
  const std::vector<int>& source_weights() const noexcept { return source_weights_; }
  const std::vector<int>& destination_weights() const noexcept { return destination_weights_; }
  bool weighted() const noexcept { return weighted_; }

  // Whether this process's lists name one process twice on a side (a repeated edge).
  bool repeats_here() const;
  // Whether some member's lists do, as the members agreed when the graph was made: the same at
  // every member (false until set_repeats_anywhere).
  bool repeats_anywhere() const noexcept { return repeats_anywhere_; }
  void set_repeats_anywhere(bool repeats) noexcept { repeats_anywhere_ = repeats; }

 private:
  std::vector<Rank> sources_, destinations_;
  std::vector<int> source_weights_, destination_weights_;
  bool weighted_;
  bool repeats_anywhere_ = false;
};

}  // namespace scomm::group
