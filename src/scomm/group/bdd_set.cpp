#include "scomm/group/bdd_set.hpp"

#include <bdd.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <mutex>
#include <unordered_map>

namespace scomm::group {
namespace {

std::uint32_t variable_count(Rank universe) {
  return std::max(1u, static_cast<std::uint32_t>(std::bit_width(
                          static_cast<std::uint32_t>(std::max<Rank>(universe, 1) - 1))));
}

// BuDDy keeps its node table in process-global state: one build at a time, from init to done.
class BuddySession {
 public:
  explicit BuddySession(std::uint32_t variables) : lock_(mutex()) {
    bdd_init(1 << 18, 1 << 14);
    bdd_setvarnum(static_cast<int>(variables));
    bdd_gbc_hook(nullptr);
  }
  ~BuddySession() { bdd_done(); }

 private:
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  std::lock_guard<std::mutex> lock_;
};

// The BDD of sorted[lo, hi), all sharing the bits above variable `var`.
bdd build_bdd(std::span<const Rank> sorted, std::size_t lo, std::size_t hi, std::uint32_t var,
              std::uint32_t bits) {
  if (lo == hi) return bddfalse;
  if (var == bits || hi - lo == (std::size_t{1} << (bits - var))) return bddtrue;
  const std::uint32_t bit = bits - 1 - var;
  const auto prefix = static_cast<std::uint32_t>(sorted[lo]) & ~((2u << bit) - 1);
  const auto mid_it = std::lower_bound(sorted.begin() + static_cast<std::ptrdiff_t>(lo),
                                       sorted.begin() + static_cast<std::ptrdiff_t>(hi),
                                       static_cast<Rank>(prefix | (1u << bit)));
  const auto mid = static_cast<std::size_t>(mid_it - sorted.begin());
  return bdd_ite(bdd_ithvarpp(static_cast<int>(var)), build_bdd(sorted, mid, hi, var + 1, bits),
                 build_bdd(sorted, lo, mid, var + 1, bits));
}

// Copies the BDD into `nodes` (children before parents) and returns the root's index.
std::uint32_t export_node(const bdd& b, std::uint32_t bits, std::vector<BddSet::Node>& nodes,
                          std::unordered_map<int, std::uint32_t>& index) {
  if (b == bddfalse) return BddSet::kFalse;
  if (b == bddtrue) return BddSet::kTrue;
  if (auto it = index.find(b.id()); it != index.end()) return it->second;
  const std::uint32_t low = export_node(bdd_low(b), bits, nodes, index);
  const std::uint32_t high = export_node(bdd_high(b), bits, nodes, index);
  const auto var = static_cast<std::uint32_t>(bdd_var(b));
  auto below = [&](std::uint32_t child) {
    return std::uint64_t{nodes[child].members} << (nodes[child].var - var - 1);
  };
  nodes.push_back({low, high, static_cast<std::uint32_t>(below(low) + below(high)), var});
  return index[b.id()] = static_cast<std::uint32_t>(nodes.size() - 1);
}

}  // namespace

BddSet::BddSet(std::span<const Rank> sorted, Rank universe)
    : n_(static_cast<Rank>(sorted.size())), bits_(variable_count(universe)) {
  nodes_ = {{kFalse, kFalse, 0, bits_}, {kTrue, kTrue, 1, bits_}};
  BuddySession session(bits_);
  const bdd set = build_bdd(sorted, 0, sorted.size(), 0, bits_);
  std::unordered_map<int, std::uint32_t> index;
  root_ = export_node(set, bits_, nodes_, index);
  nodes_.shrink_to_fit();
}

Rank BddSet::select(Rank i) const noexcept {
  std::uint64_t rest = static_cast<std::uint64_t>(i);
  std::uint64_t value = 0;
  std::uint32_t node = root_;
  for (;;) {
    const Node& n = nodes_[node];
    value |= (rest / n.members) << (bits_ - n.var);  // the free variables from..var-1
    rest %= n.members;
    if (node == kTrue) break;
    const std::uint64_t low_members = weight(n.low, n.var + 1);
    const bool go_high = rest >= low_members;
    if (go_high) {
      rest -= low_members;
      value |= std::uint64_t{1} << (bits_ - 1 - n.var);
    }
    node = go_high ? n.high : n.low;
  }
  return static_cast<Rank>(value);
}

Rank BddSet::rank(Rank world) const noexcept {
  if (world < 0 || (bits_ < 31 && static_cast<std::uint64_t>(world) >> bits_) != 0)
    return kUndefined;
  const auto w = static_cast<std::uint64_t>(world);
  std::uint64_t before = 0;
  std::uint32_t node = root_;
  std::uint32_t from = 0;
  for (;;) {
    const Node& n = nodes_[node];
    const std::uint64_t free_bits =
        (w >> (bits_ - n.var)) & ((std::uint64_t{1} << (n.var - from)) - 1);
    before += free_bits * n.members;
    if (node == kTrue) return static_cast<Rank>(before);
    if (node == kFalse) return kUndefined;
    const bool high = (w >> (bits_ - 1 - n.var)) & 1;
    if (high) before += weight(n.low, n.var + 1);
    from = n.var + 1;
    node = high ? n.high : n.low;
  }
}

namespace {

double binary_entropy(double p) {
  if (p <= 0.0 || p >= 1.0) return 0.0;
  return -(p * std::log2(p) + (1 - p) * std::log2(1 - p));
}

// Nodes summed level by level, for members spread at random (the stats show no bit-level
// structure, so residues and sub-cubes, far smaller, are overestimated). At height k there are
// U/2^k subtrees; a node is a non-constant one, i.e. one holding a run boundary (a lone member
// counts once), of which `events` are spread evenly. Equal subtrees share a node, so a level
// holds at most as many nodes as distinct contents: threshold-like functions (2^(k+1)) while
// boundaries are sparser than subtrees, else about 2^H distinct among the drawn subtrees, H the
// entropy of a subtree's 2^k bits. Within 20% of built sizes on random sets and runs.
double estimate_nodes(const SetStats& s) {
  const double universe = std::max(1.0, static_cast<double>(s.universe));
  const double events = std::min(static_cast<double>(s.n), 2.0 * s.runs);
  const double entropy = binary_entropy(static_cast<double>(s.n) / universe);
  double nodes = 2;  // the terminals
  for (std::uint32_t k = 1; k <= variable_count(s.universe); ++k) {
    const double subtrees = universe / std::ldexp(1.0, static_cast<int>(k));
    const double nonconstant = subtrees * -std::expm1(-events / subtrees);
    const double contents = std::exp2(std::min(60.0, std::ldexp(entropy, static_cast<int>(k))));
    const double distinct = events < subtrees ? std::ldexp(2.0, static_cast<int>(k))
                                              : contents * -std::expm1(-nonconstant / contents);
    nodes += std::min(nonconstant, distinct);
  }
  return nodes;
}

std::size_t estimate_bytes(const SetStats& s) {
  return sizeof(BddSet) + static_cast<std::size_t>(estimate_nodes(s)) * sizeof(BddSet::Node);
}
double estimate_ns(const SetStats& s) {
  return 10.0 + 8.0 * std::log2(std::max<double>(s.universe, 2));
}
SetPtr build(std::span<const Rank> sorted, Rank universe) {
  return std::make_unique<BddSet>(sorted, universe);
}

}  // namespace

const SetKind kBddSetKind{"bdd", estimate_bytes, estimate_ns, build};

}  // namespace scomm::group
