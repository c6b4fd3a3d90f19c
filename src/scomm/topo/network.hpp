// A communicator's levels with what a message costs at each stage: what the multilevel builders
// need. For a message of a given size, the tree may leave levels out: a level's relay (one
// representative per cluster, which forwards to the clusters below) saves messages on the slow
// link above it but adds a stage on its own link. Where latency dominates and the level's link
// is slow (a LAN between machines of one site), reaching the clusters below directly over the
// link above is faster; for large messages the relay wins. for_message() picks, from the cost
// model, the subset of levels whose tree is the fastest. Pure C++ (no MPI).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "scomm/topo/level_costs.hpp"
#include "scomm/topo/levels.hpp"

namespace scomm::topo {

class Network {
 public:
  // At most this many levels are considered for leaving out (2^kMaxChoiceDepth subsets); a
  // deeper network always uses all its levels.
  static constexpr int kMaxChoiceDepth = 5;

  Network() = default;
  Network(Levels levels, LevelCosts costs);

  const Levels& levels() const noexcept { return levels_; }
  const LevelCosts& costs() const noexcept { return costs_; }

  // The network a tree for `bytes` (in `segments` pipelined pieces) should use: this one, or
  // this one with some levels left out (built on first use and kept). Deterministic: every
  // member of the communicator picks the same.
  const Network& for_message(std::int64_t bytes, std::int64_t segments = 1) const;
  // The modelled time of a tree that keeps the levels of `kept` (bit l: level l), the sum of its
  // stages' times at their largest participant counts.
  double modelled_time(unsigned kept, std::int64_t bytes, std::int64_t segments = 1) const;

 private:
  // participants_[a + 1][b]: the most clusters of level b (b = depth: ranks) inside one cluster of
  // level a (a = -1: the whole communicator).
  void count_participants() const;
  const Network& reduced(unsigned kept) const;

  Levels levels_;
  LevelCosts costs_;
  mutable std::vector<std::vector<int>> participants_;
  mutable std::array<std::unique_ptr<Network>, (1u << kMaxChoiceDepth)> reduced_;
};

}  // namespace scomm::topo
