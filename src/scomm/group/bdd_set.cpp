#include "scomm/group/bdd_set.hpp"

#include <bdd.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <mutex>
#include <unordered_map>

#include "scomm/group/set_stats.hpp"

namespace scomm::group {
namespace {

std::uint32_t variable_count(Rank universe) {
  return std::max(1u, static_cast<std::uint32_t>(std::bit_width(
                          static_cast<std::uint32_t>(std::max<Rank>(universe, 1) - 1))));
}

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

// BuDDy keeps its node table in process-global state: one build at a time, from init to done.
// The table starts at the expected size and doubles when full (BuDDy's default growth is 50,000
// nodes at a time, each step with a garbage collection: seconds for a million nodes).
class BuddySession {
 public:
  BuddySession(std::uint32_t variables, double expected_nodes) : lock_(mutex()) {
    const auto nodes = static_cast<int>(std::clamp(1.5 * expected_nodes, 1e4, 1e8));
    bdd_init(nodes, std::max(nodes / 8, 1 << 12));
    bdd_setmaxincrease(1 << 30);
    bdd_setvarnum(static_cast<int>(variables));
    bdd_gbc_hook(nullptr);
  }
  ~BuddySession() { bdd_done(); }
  BuddySession(const BuddySession&) = delete;
  BuddySession& operator=(const BuddySession&) = delete;

 private:
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  std::lock_guard<std::mutex> lock_;
};

// The BDD of sorted[lo, hi), all sharing the bits above variable `var`: split on that variable's
// bit, built bottom-up, so BuDDy only ever joins two reduced children (bdd_ite on a variable).
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

// Copies a BuDDy BDD into the node array, children before parents, counting members per node.
class Exporter {
 public:
  Exporter(std::uint32_t bits, std::vector<BddSet::Node>& nodes) : nodes_(nodes) {
    nodes_ = {{BddSet::kFalse, BddSet::kFalse, 0, bits}, {BddSet::kTrue, BddSet::kTrue, 0, bits}};
    members_ = {0, 1};
  }

  // The node's index in the array.
  std::uint32_t add(const bdd& b) {
    if (b == bddfalse) return BddSet::kFalse;
    if (b == bddtrue) return BddSet::kTrue;
    if (auto it = index_.find(b.id()); it != index_.end()) return it->second;
    const std::uint32_t low = add(bdd_low(b)), high = add(bdd_high(b));
    const auto var = static_cast<std::uint32_t>(bdd_var(b));
    const std::uint64_t low_weight = weight(low, var), high_weight = weight(high, var);
    nodes_.push_back({low, high, static_cast<std::uint32_t>(low_weight), var});
    members_.push_back(low_weight + high_weight);
    return index_[b.id()] = static_cast<std::uint32_t>(nodes_.size() - 1);
  }

 private:
  // Members below the edge from a node at `var` to `child`; skipped variables are free.
  std::uint64_t weight(std::uint32_t child, std::uint32_t var) const {
    return members_[child] << (nodes_[child].var - var - 1);
  }

  std::vector<BddSet::Node>& nodes_;
  std::vector<std::uint64_t> members_;  // members of each node over the variables var..bits-1
  std::unordered_map<int, std::uint32_t> index_;
};

}  // namespace

BddSet::BddSet(std::span<const Rank> sorted, Rank universe)
    : n_(static_cast<Rank>(sorted.size())),
      bits_(variable_count(std::max(universe, sorted.empty() ? 0 : sorted.back() + 1))) {
  const BuddySession session(bits_, estimate_nodes(compute_set_stats(sorted)));
  const bdd set = build_bdd(sorted, 0, sorted.size(), 0, bits_);
  root_ = Exporter(bits_, nodes_).add(set);
  nodes_.shrink_to_fit();
}

BddSet::Step BddSet::child(const Step& at, bool high) const noexcept {
  const Node& n = nodes_[at.node];
  const std::uint64_t members = at.weight >> (n.var - at.from);
  return {high ? n.high : n.low, n.var + 1, high ? members - n.low_weight : n.low_weight};
}

// The thesis's path-based SELECT: at each node go low if i falls among the low branch's members,
// else high, less those members. Variables skipped by the edge into a node are free: the members
// below repeat once per value of those bits, which are therefore i / members (i then mod members).
Rank BddSet::select(Rank i) const noexcept {
  if (i < 0 || i >= n_) return kUndefined;  // never a division by zero, even out of contract
  auto rest = static_cast<std::uint64_t>(i);
  std::uint64_t value = 0;
  for (Step at = root();;) {
    const Node& n = nodes_[at.node];
    if (n.var != at.from) {
      const std::uint64_t members = at.weight >> (n.var - at.from);
      value |= rest / members << (bits_ - n.var);
      rest %= members;
    }
    if (at.node == kTrue) return static_cast<Rank>(value);
    const bool high = rest >= n.low_weight;
    if (high) {
      rest -= n.low_weight;
      value |= std::uint64_t{1} << (bits_ - 1 - n.var);
    }
    at = child(at, high);
  }
}

// Walks the bits of `world`, adding the members that come before it: the low branch's whenever
// it goes high, and, for skipped (free) variables, one copy of the members below per value of
// those bits below world's.
Rank BddSet::rank(Rank world) const noexcept {
  const auto w = static_cast<std::uint64_t>(world);
  if (world < 0 || (w >> bits_) != 0) return kUndefined;
  std::uint64_t before = 0;
  for (Step at = root();;) {
    const Node& n = nodes_[at.node];
    const std::uint64_t skipped = n.var - at.from;
    const std::uint64_t free_bits = (w >> (bits_ - n.var)) & ((std::uint64_t{1} << skipped) - 1);
    before += free_bits * (at.weight >> skipped);
    if (at.node == kTrue) return static_cast<Rank>(before);
    if (at.node == kFalse) return kUndefined;
    const bool high = (w >> (bits_ - 1 - n.var) & 1) != 0;
    if (high) before += n.low_weight;
    at = child(at, high);
  }
}

// The kind's cost model and constructor, named apart from the other kinds' (unity builds).
namespace bdd_set_kind {
namespace {

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
}  // namespace bdd_set_kind

const SetKind kBddSetKind{"bdd", bdd_set_kind::estimate_bytes, bdd_set_kind::estimate_ns,
                          bdd_set_kind::build};

}  // namespace scomm::group
