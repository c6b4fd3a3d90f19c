// bdd: the set as a reduced ordered BDD over the bits of the world rank (most significant first),
// built with BuDDy and exported into an immutable node array that records how many members lie
// below each node. select follows the thesis's path-based SELECT; rank sums the low-side counts
// along the member's path. Tiny for sets with bit-level structure (sub-cubes, residues).
#pragma once

#include <vector>

#include "scomm/group/representation.hpp"

namespace scomm::group {

class BddSet final : public OrderedSet {
 public:
  struct Node {
    std::uint32_t low;
    std::uint32_t high;
    std::uint32_t members;  // satisfying assignments of the variables var..bits-1
    std::uint32_t var;
  };
  static constexpr std::uint32_t kFalse = 0;
  static constexpr std::uint32_t kTrue = 1;

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
  // Members of the subtree of `node` entered from variable `from`: skipped variables are free.
  std::uint64_t weight(std::uint32_t node, std::uint32_t from) const noexcept {
    return std::uint64_t{nodes_[node].members} << (nodes_[node].var - from);
  }

  Rank n_;
  std::uint32_t bits_;
  std::uint32_t root_;
  std::vector<Node> nodes_;  // [0] false, [1] true, then internal nodes, children first
};

extern const SetKind kBddSetKind;

}  // namespace scomm::group
