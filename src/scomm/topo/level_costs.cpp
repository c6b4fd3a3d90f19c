#include "scomm/topo/level_costs.hpp"

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <string>

#include "scomm/base/error.hpp"

namespace scomm::topo {
namespace {

constexpr double kMicrosecond = 1e-6;

// LogGP estimates (cost_model.hpp) for `segments` pipelined pieces of `bytes` each: the first
// piece goes down the tree, then each further one costs the busiest port's time per piece, the
// root's. A flat tree pays the wire latency once and its root's port n - 1 times per piece; a
// binomial tree pays everything once per step, its root sending ceil(log2 n) times per piece.
double port_time(const coll::Link& link, std::int64_t bytes) {
  return std::max(link.port_time(bytes), link.gap);
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

[[noreturn]] void bad_spec(std::string_view entry, const std::string& why) {
  throw Error(ErrorClass::kArg, "SCOMM_TOPO_LINKS entry '" + std::string(entry) + "': " + why);
}

struct Unit {
  std::string_view name;
  double scale;
};

// A number followed by one of `units`.
double quantity(std::string_view text, std::initializer_list<Unit> units, std::string_view entry) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || value < 0)
    bad_spec(entry, "'" + std::string(text) + "' is not a quantity");
  const std::string_view unit = text.substr(static_cast<std::size_t>(end - text.data()));
  for (const Unit& u : units)
    if (unit == u.name) return value * u.scale;
  bad_spec(entry, "unknown unit '" + std::string(unit) + "'");
}

double seconds(std::string_view text, std::string_view entry) {
  return quantity(text, {{"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}}, entry);
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (;;) {
    const std::size_t at = text.find(separator);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return parts;
    text.remove_prefix(at + 1);
  }
}

// `link` with the parts of "LATENCY[:BANDWIDTH[:OVERHEAD]]" given.
coll::Link parse_link(std::string_view text, coll::Link link, std::string_view entry) {
  const std::vector<std::string_view> parts = split(text, ':');
  if (parts.size() > 3) bad_spec(entry, "more than latency:bandwidth:overhead");
  link.latency = seconds(parts[0], entry);
  if (parts.size() > 1) {
    const double bandwidth =
        quantity(parts[1], {{"B/s", 1}, {"KB/s", 1e3}, {"MB/s", 1e6}, {"GB/s", 1e9}}, entry);
    if (bandwidth <= 0) bad_spec(entry, "bandwidth must be positive");
    link.per_byte = 1 / bandwidth;
  }
  if (parts.size() > 2)
    link.send_overhead = link.recv_overhead = link.gap = seconds(parts[2], entry);
  return link;
}

}  // namespace

LevelCosts LevelCosts::configured(const std::vector<std::string>& names, std::string_view spec) {
  LevelCosts costs = defaults(static_cast<int>(names.size()));
  if (spec.empty()) return costs;
  for (const std::string_view entry : split(spec, ',')) {
    const std::size_t equals = entry.find('=');
    if (equals == std::string_view::npos)
      bad_spec(entry, "expected name=latency[:bandwidth[:overhead]]");
    const std::string_view name = entry.substr(0, equals);
    std::size_t stage = names.size();  // "inside"
    if (name != "inside") {
      stage = static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
      if (stage == names.size()) bad_spec(entry, "no level is named '" + std::string(name) + "'");
    }
    costs.links[stage] = parse_link(entry.substr(equals + 1), costs.links[stage], entry);
  }
  return costs;
}

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

double LevelCosts::stage_time(int stage, int participants, std::int64_t bytes,
                              std::int64_t segments) const {
  if (participants <= 1) return 0;
  const coll::Link& at = link(stage);
  return std::min(flat_time(at, participants, bytes, segments),
                  binomial_time(at, participants, bytes, segments));
}

}  // namespace scomm::topo
