// bdd: the set as a reduced ordered BDD over the bits of the world rank (most significant first),
// built with BuDDy and exported into an immutable node array that records, per node, how many
// members its low branch holds. select follows the thesis's path-based SELECT; rank sums the
// low-branch counts along the member's path. Tiny for sets with bit-level structure (sub-cubes,
// residues: the even ranks of 2^20 take one node), large for random sets.
#pragma once

#include <cstdint>
#include <vector>

#include "scomm/group/representation.hpp"

namespace scomm::group {

class BddSet final : public OrderedSet {
 public:
  struct Node {
    std::uint32_t low;
    std::uint32_t high;
    // Members of the low branch over the variables var+1..bits-1 (those the edge skips are free,
    // so they multiply the low child's own count).
    std::uint32_t low_weight;
    std::uint32_t var;  // bits for the terminals
  };
  static constexpr std::uint32_t kFalse = 0;
  static constexpr std::uint32_t kTrue = 1;

  // Precondition: `sorted` strictly increasing, members in [0, 2^31 - 1). The variables cover
  // the bits of max(universe, largest member + 1) - 1.
  BddSet(std::span<const Rank> sorted, Rank universe);

  Rank size() const noexcept override { return n_; }
  Rank select(Rank i) const noexcept override;
  Rank rank(Rank world) const noexcept override;
  std::size_t bytes() const noexcept override {
    return sizeof(*this) + nodes_.capacity() * sizeof(Node);
  }
  std::string_view name() const noexcept override { return "bdd"; }
  std::size_t node_count() const noexcept { return nodes_.size(); }

 private:
  // A step down the BDD: the node, the variable the edge into it left from, and the members
  // below that edge.
  struct Step {
    std::uint32_t node;
    std::uint32_t from;
    std::uint64_t weight;
  };
  Step root() const noexcept { return {root_, 0, static_cast<std::uint64_t>(n_)}; }
  Step child(const Step& at, bool high) const noexcept;

  Rank n_;
  std::uint32_t bits_;
  std::uint32_t root_;
  std::vector<Node> nodes_;  // [0] false, [1] true, then internal nodes, children first
};

extern const SetKind kBddSetKind;

}  // namespace scomm::group
