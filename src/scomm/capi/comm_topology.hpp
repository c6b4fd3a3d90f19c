// A communicator's levels as the C API shows them, made on first use: the world's levels
// restricted to its members (no communication), and the arrays behind the attributes
// SCOMM_TOPOLOGY_DEPTHS (int[size]) and SCOMM_TOPOLOGY_COLORS (int*[size] of int[depth]),
// made only when asked for and valid until the communicator is freed.
#pragma once

#include <vector>

#include "scomm/topo/network.hpp"

namespace scomm::capi {

class CommTopology {
 public:
  explicit CommTopology(topo::Network network) : network_(std::move(network)) {}

  const topo::Network& network() const noexcept { return network_; }
  const topo::Levels& levels() const noexcept { return network_.levels(); }
  int* depths() {
    if (depths_.empty())
      depths_.assign(static_cast<std::size_t>(levels().size()), levels().depth());
    return depths_.data();
  }
  int** colors() {
    if (rows_.empty()) make_color_rows();
    return rows_.data();
  }

 private:
  void make_color_rows() {
    const auto size = static_cast<std::size_t>(levels().size());
    const auto depth = static_cast<std::size_t>(levels().depth());
    colors_.resize(size * depth);
    rows_.resize(size);
    for (std::size_t r = 0; r < size; ++r) {
      rows_[r] = colors_.data() + r * depth;
      for (std::size_t l = 0; l < depth; ++l)
        rows_[r][l] = levels().color(static_cast<int>(r), static_cast<int>(l));
    }
  }

  topo::Network network_;
  std::vector<int> depths_;
  std::vector<int> colors_;  // row-major: rank, then level
  std::vector<int*> rows_;
};

}  // namespace scomm::capi
