#include "scomm/group/choose_map.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

#include "scomm/group/catalog.hpp"
#include "scomm/group/identity_permutation.hpp"
#include "scomm/group/permutation_stats.hpp"
#include "scomm/group/ranges_map.hpp"
#include "scomm/group/set_permutation_map.hpp"
#include "scomm/group/set_stats.hpp"

namespace scomm::group {
namespace {

// A linear scan costs about this much per member (rank_of on lists).
constexpr double kScanNsPerMember = 0.3;

struct Analysis {
  std::vector<Rank> sorted;
  std::vector<Rank> set_index;  // set index of each group rank
  SetStats set_stats;
  PermutationStats permutation_stats;
  std::vector<Run> ranges;  // the runs when few enough and not interleaved, else empty
  bool ascending = true;
};

Analysis analyze(std::span<const Rank> values) {
  Analysis a;
  const auto n = values.size();
  std::vector<Rank> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](Rank x, Rank y) { return values[x] < values[y]; });
  a.sorted.resize(n);
  a.set_index.resize(n);
  for (std::size_t j = 0; j < n; ++j) {
    a.sorted[j] = values[static_cast<std::size_t>(order[j])];
    a.set_index[static_cast<std::size_t>(order[j])] = static_cast<Rank>(j);
  }
  a.ascending = std::is_sorted(values.begin(), values.end());
  a.set_stats = compute_set_stats(a.sorted);
  a.permutation_stats = compute_permutation_stats(a.set_index);
  if (RangesMap::count_runs(values) * 4 <= a.set_stats.n) {
    a.ranges = RangesMap::split_runs(values);
    if (RangesMap::interleaved(a.ranges)) a.ranges.clear();
  }
  return a;
}

struct Plan {
  MapCandidate candidate;
  std::function<MapPtr()> build;
};

void add_set_plans(const Analysis& a, std::vector<Plan>& plans) {
  for (const SetKind* set : set_kinds()) {
    const std::size_t set_bytes = set->estimate_bytes(a.set_stats) + sizeof(SetPermutationMap);
    const double set_ns = set->estimate_ns(a.set_stats);
    auto build_set = [&a, set] { return set->build(a.sorted, a.set_stats.universe); };
    if (a.ascending) {
      plans.push_back({{std::string(set->name), set_bytes, set_ns}, [&a, build_set] {
                         return std::make_shared<SetPermutationMap>(
                             build_set(), make_identity_permutation(a.set_stats.n));
                       }});
      continue;
    }
    for (const PermutationKind* perm : permutation_kinds()) {
      MapCandidate c{std::string(set->name) + "+" + std::string(perm->name),
                     set_bytes + perm->estimate_bytes(a.permutation_stats),
                     set_ns + perm->estimate_ns(a.permutation_stats)};
      plans.push_back({std::move(c), [&a, build_set, perm] {
                         return std::make_shared<SetPermutationMap>(build_set(),
                                                                    perm->build(a.set_index));
                       }});
    }
  }
}

void add_list_plans(const Analysis& a, std::span<const Rank> values, std::vector<Plan>& plans) {
  const Rank n = a.set_stats.n;
  const Rank universe = a.set_stats.universe;
  for (const ListKind* list : list_kinds()) {
    MapCandidate c{std::string(list->name), list->estimate_bytes(a.set_stats, a.ascending),
                   list->estimate_ns(a.set_stats) + kScanNsPerMember * n};
    plans.push_back(
        {std::move(c), [values, universe, list] { return list->build(values, universe); }});
  }
  if (!a.ranges.empty()) {
    const std::size_t runs = a.ranges.size();
    MapCandidate c{"ranges", sizeof(RangesMap) + runs * (sizeof(Run) + 2 * sizeof(Rank)),
                   10.0 + 6.0 * std::log2(static_cast<double>(runs) + 1)};
    plans.push_back({std::move(c), [&a] { return RangesMap::make(a.ranges); }});
  }
}

// `time_cap`: HYBRID's limit on estimated lookup time (see ranked_plans).
double score(const MapCandidate& c, const MapPolicy& policy, double time_cap) {
  const double log_time = std::log(std::max(c.ns, 0.1));
  const double log_space = std::log(static_cast<double>(std::max<std::size_t>(c.bytes, 1)));
  switch (policy.strategy) {
    case MapStrategy::kSpace:
      return log_space + 1e-6 * log_time;
    case MapStrategy::kTime:
      return log_time + 1e-6 * log_space;
    case MapStrategy::kHybrid:
      break;
  }
  const double too_slow = c.ns > time_cap ? 1e3 : 0.0;
  return too_slow + policy.alpha * log_time + (1 - policy.alpha) * log_space;
}

std::vector<Plan> ranked_plans(const Analysis& a, std::span<const Rank> values,
                               const MapPolicy& policy) {
  std::vector<Plan> plans;
  add_set_plans(a, plans);
  add_list_plans(a, values, plans);
  // When even the fastest candidate misses the limit, HYBRID still only weighs those close to it.
  double fastest = std::numeric_limits<double>::infinity();
  for (const Plan& p : plans) fastest = std::min(fastest, p.candidate.ns);
  const double time_cap = std::max(policy.hybrid_max_ns, 1.5 * fastest);
  std::stable_sort(plans.begin(), plans.end(), [&](const Plan& x, const Plan& y) {
    return score(x.candidate, policy, time_cap) < score(y.candidate, policy, time_cap);
  });
  return plans;
}

}  // namespace

std::vector<MapCandidate> rank_candidates(std::span<const Rank> world_ranks,
                                          const MapPolicy& policy) {
  const Analysis a = analyze(world_ranks);
  std::vector<MapCandidate> out;
  for (const Plan& p : ranked_plans(a, world_ranks, policy)) out.push_back(p.candidate);
  return out;
}

MapPtr build_irregular_map(std::span<const Rank> world_ranks, const MapPolicy& policy) {
  const Analysis a = analyze(world_ranks);
  return ranked_plans(a, world_ranks, policy).front().build();
}

MapPtr build_named_map(std::span<const Rank> world_ranks, std::string_view name) {
  const Analysis a = analyze(world_ranks);
  for (const Plan& p : ranked_plans(a, world_ranks, MapPolicy{}))
    if (p.candidate.name == name) return p.build();
  return nullptr;
}

}  // namespace scomm::group
