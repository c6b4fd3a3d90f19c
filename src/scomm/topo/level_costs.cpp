#include "scomm/topo/level_costs.hpp"

#include <algorithm>
#include <cstddef>

namespace scomm::topo {
namespace {

constexpr double kMicrosecond = 1e-6;

// LogGP estimates (cost_model.hpp) for `segments` pipelined pieces of `bytes` each: the first
// piece goes down the tree, then each further one costs the busiest port's time per piece, the
// root's. A flat tree pays the wire latency once and its root's port n - 1 times per piece; a
// binomial tree pays everything once per step, its root sending ceil(log2 n) times per piece.
double port_time(const coll::Link& link, std::int64_t bytes) {
  return std::max(link.send_overhead + static_cast<double>(bytes) * link.per_byte, link.gap);
}

double flat_time(const coll::Link& link, int n, std::int64_t bytes, std::int64_t segments) {
  const double port = port_time(link, bytes);
  return (n - 1) * port + link.latency + link.recv_overhead +
         static_cast<double>(segments - 1) * (n - 1) * port;
}

double binomial_time(const coll::Link& link, int n, std::int64_t bytes, std::int64_t segments) {
  int steps = 0;
  for (int reach = 1; reach < n; reach *= 2) ++steps;
  const double port = port_time(link, bytes);
  return steps * (port + link.latency + link.recv_overhead) +
         static_cast<double>(segments - 1) * steps * port;
}

}  // namespace

LevelCosts LevelCosts::defaults(int depth) {
  const coll::Link wan =
      coll::Link::loggp(10'000 * kMicrosecond, 5 * kMicrosecond, 5 * kMicrosecond, 1e-8);
  const coll::Link network =
      coll::Link::loggp(2 * kMicrosecond, 1 * kMicrosecond, 1 * kMicrosecond, 1e-10);
  const coll::Link memory = coll::Link::hockney(0.3 * kMicrosecond, 1e-10);
  LevelCosts costs;
  for (int stage = 0; stage < depth; ++stage)
    costs.links.push_back(stage == 0 && depth >= 2 ? wan : network);
  costs.links.push_back(memory);
  return costs;
}

const coll::Link& LevelCosts::link(int stage) const {
  static const coll::Link kFree{};
  if (links.empty()) return kFree;
  return links[std::min(static_cast<std::size_t>(stage), links.size() - 1)];
}

StageShape LevelCosts::shape(int stage, int participants, std::int64_t bytes,
                             std::int64_t segments) const {
  const coll::Link& at = link(stage);
  return flat_time(at, participants, bytes, segments) <
                 binomial_time(at, participants, bytes, segments)
             ? StageShape::kFlat
             : StageShape::kBinomial;
}

}  // namespace scomm::topo
