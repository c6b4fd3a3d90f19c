#include "measure.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>
#include <stdexcept>

namespace scomm::bench {
namespace {

using Clock = std::chrono::steady_clock;
using group::Rank;

constexpr std::size_t kClockEvery = 256;  // steps between two looks at the clock
constexpr std::size_t kDecodeChunk = 256;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Timed {
  double ns = 0;          // per unit of work
  std::size_t units = 0;  // done in the timed batch
};

// One warm-up batch, then one timed batch of step(0), ..., step(steps - 1); step(i) returns the
// units of work it did. A batch stops early once `budget` seconds have passed.
template <typename Step>
Timed time_batch(std::size_t steps, double budget, Step step) {
  auto batch = [&] {
    const auto start = Clock::now();
    std::size_t units = 0, i = 0;
    while (i < steps) {
      for (const std::size_t end = std::min(steps, i + kClockEvery); i < end; ++i) units += step(i);
      if (seconds_since(start) > budget) break;
    }
    return Timed{seconds_since(start) * 1e9 / static_cast<double>(std::max<std::size_t>(units, 1)),
                 units};
  };
  batch();
  return batch();
}

struct Lookups {
  Timed select, sequential, reverse;
};

Lookups time_lookups(const group::RankMap& map, const LookupSample& sample,
                     const TimingOptions& timing) {
  volatile std::int64_t sink = 0;
  std::int64_t sum = 0;
  Lookups t;
  t.select = time_batch(sample.ranks.size(), timing.budget_seconds, [&](std::size_t i) {
    sum += map.select(sample.ranks[i]);
    return std::size_t{1};
  });
  const std::size_t n = static_cast<std::size_t>(map.size());
  const std::size_t chunks = (n + kDecodeChunk - 1) / kDecodeChunk;
  std::vector<Rank> out(kDecodeChunk);
  t.sequential = time_batch(std::max(chunks, timing.lookups / kDecodeChunk), timing.budget_seconds,
                            [&](std::size_t i) {
                              const std::size_t first = i % chunks * kDecodeChunk;
                              const std::size_t count = std::min(kDecodeChunk, n - first);
                              map.decode(static_cast<Rank>(first), std::span(out.data(), count));
                              sum += out[count - 1];
                              return count;
                            });
  t.reverse = time_batch(sample.members.size(), timing.budget_seconds, [&](std::size_t i) {
    sum += map.rank_of(sample.members[i]);
    return std::size_t{1};
  });
  sink = sum;
  (void)sink;
  return t;
}

// A wrong map must not be timed as if it were right (a few lookups: some rank_of are slow).
void check(const group::RankMap& map, const LookupSample& sample) {
  const std::size_t count = std::min<std::size_t>(sample.ranks.size(), 256);
  for (std::size_t i = 0; i < count; ++i)
    if (map.select(sample.ranks[i]) != sample.members[i] ||
        map.rank_of(sample.members[i]) != sample.ranks[i])
      throw std::runtime_error(std::string(map.name()) + " gives a wrong answer at group rank " +
                               std::to_string(sample.ranks[i]));
}

Spread spread(std::vector<double> v) {
  if (v.empty()) return {};
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2], v.front(), v.back()};
}

}  // namespace

LookupSample make_lookup_sample(std::span<const Rank> members, std::size_t count) {
  LookupSample sample;
  if (members.empty()) return sample;
  std::mt19937 rng(42);
  for (std::size_t i = 0; i < count; ++i) {
    const auto rank = static_cast<std::size_t>(rng() % members.size());
    sample.ranks.push_back(static_cast<Rank>(rank));
    sample.members.push_back(members[rank]);
  }
  return sample;
}

MapMeasurement measure_map(const std::function<group::MapPtr()>& build, const LookupSample& sample,
                           int reps, const TimingOptions& timing) {
  MapMeasurement m;
  std::vector<double> build_ms, select_ns, sequential_ns, reverse_ns;
  for (int rep = 0; rep < reps; ++rep) {
    const auto start = Clock::now();
    const group::MapPtr map = build();
    build_ms.push_back(seconds_since(start) * 1e3);
    m.representation = std::string(map->name());
    m.regular = map->as_box().has_value();
    m.bytes = map->bytes() + map->shared_bytes();
    if (sample.ranks.empty()) continue;
    if (rep == 0) check(*map, sample);
    const Lookups t = time_lookups(*map, sample, timing);
    select_ns.push_back(t.select.ns);
    sequential_ns.push_back(t.sequential.ns);
    reverse_ns.push_back(t.reverse.ns);
    m.select_lookups = t.select.units;
    m.reverse_lookups = t.reverse.units;
  }
  m.build_ms = spread(build_ms);
  m.select_ns = spread(select_ns);
  m.sequential_ns = spread(sequential_ns);
  m.reverse_ns = spread(reverse_ns);
  return m;
}

}  // namespace scomm::bench
