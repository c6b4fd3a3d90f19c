#include "measure.hpp"

#include <algorithm>
#include <chrono>
#include <random>
#include <vector>

namespace scomm::bench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double kMinSeconds = 0.01;  // each timing runs batches until this much time has passed

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Calls batch() (which performs `per_batch` operations) until kMinSeconds pass; ns per operation.
template <typename Batch>
double time_per_operation(std::size_t per_batch, Batch batch) {
  batch();  // warm-up
  std::size_t operations = 0;
  const auto start = Clock::now();
  do {
    batch();
    operations += per_batch;
  } while (seconds_since(start) < kMinSeconds);
  return seconds_since(start) * 1e9 / static_cast<double>(operations);
}

struct Lookups {
  double select_ns, sequential_ns, reverse_ns;
};

Lookups time_lookups(const group::RankMap& map) {
  const group::Rank n = map.size();
  std::mt19937 rng(42);
  std::vector<group::Rank> ranks(4096), worlds(256);
  for (auto& r : ranks) r = static_cast<group::Rank>(rng() % static_cast<unsigned>(n));
  for (auto& w : worlds) w = map.select(static_cast<group::Rank>(rng() % static_cast<unsigned>(n)));
  volatile group::Rank sink = 0;
  const double select_ns = time_per_operation(ranks.size(), [&] {
    group::Rank acc = 0;
    for (group::Rank r : ranks) acc += map.select(r);
    sink = acc;
  });
  std::vector<group::Rank> chunk(256);
  const double sequential_ns = time_per_operation(static_cast<std::size_t>(n), [&] {
    for (group::Rank first = 0; first < n; first += 256) {
      const auto count = static_cast<std::size_t>(std::min<group::Rank>(256, n - first));
      map.decode(first, std::span(chunk.data(), count));
    }
    sink = chunk[0];
  });
  std::size_t next = 0;
  const double reverse_ns = time_per_operation(16, [&] {
    group::Rank acc = 0;
    for (int k = 0; k < 16; ++k) acc += map.rank_of(worlds[next++ % worlds.size()]);
    sink = acc;
  });
  (void)sink;
  return {select_ns, sequential_ns, reverse_ns};
}

Spread spread(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2], v.front(), v.back()};
}

}  // namespace

MapMeasurement measure_map(const std::function<group::MapPtr()>& build, int reps) {
  MapMeasurement m;
  std::vector<double> build_ms, select_ns, sequential_ns, reverse_ns;
  for (int rep = 0; rep < reps; ++rep) {
    const auto start = Clock::now();
    const group::MapPtr map = build();
    build_ms.push_back(seconds_since(start) * 1e3);
    m.representation = std::string(map->name());
    m.bytes = map->bytes() + map->shared_bytes();
    if (map->size() == 0) continue;
    const Lookups t = time_lookups(*map);
    select_ns.push_back(t.select_ns);
    sequential_ns.push_back(t.sequential_ns);
    reverse_ns.push_back(t.reverse_ns);
  }
  m.build_ms = spread(build_ms);
  if (!select_ns.empty()) {
    m.select_ns = spread(select_ns);
    m.sequential_ns = spread(sequential_ns);
    m.reverse_ns = spread(reverse_ns);
  }
  return m;
}

}  // namespace scomm::bench
