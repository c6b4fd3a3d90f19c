#include "multilevel_model.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "scomm/coll/bcast_binomial.hpp"
#include "scomm/coll/simulator.hpp"
#include "scomm/topo/bcast_multilevel.hpp"
#include "scomm/topo/level_costs.hpp"
#include "scomm/topo/level_model.hpp"

namespace scomm::bench {
namespace {

using coll::Link;
using topo::Levels;

// A platform: nested levels of consecutive ranks, outermost first, and each level's link (the
// links between its clusters), then the link inside the innermost cluster. The links are those
// of scripts/smpi_platform.py (WAN 10 ms and 100 MB/s, LAN 100 us and 1 GB/s, inside a machine
// 1 us and 10 GB/s); the 2^20-rank one adds a switch level between racks and a socket level.
struct Platform {
  const char* name;
  std::vector<const char*> level_names;
  std::vector<int> block_sizes;
  int ranks;
  std::vector<Link> links;  // per level, then the innermost
  int roots;                // sampled, spread over the ranks
};

// Latency in flight (not occupying the sender, as on SMPI's links), 1 us of CPU per message at
// each end, and the bandwidth.
Link link(double latency_s, double bytes_per_s) {
  return Link::loggp(latency_s, 1e-6, 0, 1.0 / bytes_per_s);
}

std::vector<Platform> platforms(bool quick) {
  const Link wan = link(10e-3, 100e6), lan = link(100e-6, 1e9), core = link(1e-6, 10e9);
  std::vector<Platform> out{{"seed48", {"site", "machine"}, {32, 16}, 48, {wan, lan, core}, 48},
                            {"p1024", {"site", "machine"}, {256, 16}, 1024, {wan, lan, core}, 8},
                            {"p4096", {"site", "machine"}, {1024, 64}, 4096, {wan, lan, core}, 4}};
  if (!quick)
    out.push_back({"p1048576",
                   {"site", "rack", "machine", "socket"},
                   {131072, 4096, 64, 32},
                   1 << 20,
                   {wan, lan, link(5e-6, 10e9), link(0.5e-6, 20e9), core},
                   2});
  return out;
}

// What a variant's builder is told: the platform's levels [first, last).
Levels levels_of(const Platform& p, std::size_t first, std::size_t last) {
  std::vector<std::string> names;
  std::vector<int> sizes;
  for (std::size_t l = first; l < last; ++l) {
    names.emplace_back(p.level_names[l]);
    sizes.push_back(p.block_sizes[l]);
  }
  return Levels::blocks(std::move(names), sizes, p.ranks);
}

struct Variant {
  const char* name;
  Levels levels;  // none: flat binomial
  bool flat;
};

std::vector<Variant> variants(const Platform& p) {
  const std::size_t depth = p.block_sizes.size();
  return {{"multilevel", levels_of(p, 0, depth), false},
          {"2-level by site", levels_of(p, 0, 1), false},
          {"2-level by machine", levels_of(p, depth - 1, depth), false},
          {"flat binomial", Levels(), true}};
}

struct Outcome {
  double time = 0;                               // mean over roots
  std::vector<std::int64_t> messages, critical;  // per level, outermost first; critical: max
};

Outcome simulate_variant(const Platform& p, const Variant& v, std::int64_t bytes,
                         const coll::LevelModel& model) {
  const topo::LevelCosts costs = topo::LevelCosts::defaults(v.levels.depth());
  const coll::ScheduleBuilder build = [&](const coll::Shape& s) {
    return v.flat ? coll::bcast_binomial(s, bytes)
                  : topo::bcast_multilevel(v.levels, costs, s, bytes, bytes);
  };
  Outcome o;
  const int levels = model.levels();
  o.messages.assign(static_cast<std::size_t>(levels), 0);
  o.critical.assign(static_cast<std::size_t>(levels), 0);
  for (int k = 0; k < p.roots; ++k) {
    const int root = static_cast<int>(std::int64_t{k} * p.ranks / p.roots);
    const coll::Simulation sim = coll::simulate(build, p.ranks, root, model);
    if (!sim.ok()) throw std::runtime_error(sim.describe_problems());
    o.time += sim.time / p.roots;
    for (int l = 0; l < levels; ++l) {  // the model counts innermost first
      const auto from = static_cast<std::size_t>(l), to = static_cast<std::size_t>(levels - 1 - l);
      o.messages[to] = sim.messages_per_level[from];
      o.critical[to] = std::max(o.critical[to], sim.critical_messages_per_level[from]);
    }
  }
  return o;
}

std::string counts_json(const std::vector<std::int64_t>& counts) {
  std::string s = "[";
  for (std::size_t i = 0; i < counts.size(); ++i) s += (i ? ", " : "") + std::to_string(counts[i]);
  return s + "]";
}

std::string seconds_json(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", seconds);
  return text;
}

std::string names_json(const Platform& p) {
  std::string s = "[";
  for (const char* name : p.level_names)
    s += std::string(s.size() > 1 ? ", " : "") + '"' + name + '"';
  return s + ", \"inside\"]";
}

}  // namespace

std::string run_multilevel_model(std::ostream& out, bool quick, const std::string& command) {
  const std::vector<std::int64_t> sizes{1, 1024, 65536, 1 << 20};
  std::string json =
      "{\"experiment\": \"multilevel-model\", \"command\": \"" + command + "\", \"rows\": [";
  bool first = true;
  char line[512];
  out << "== multilevel-model (bcast on the schedule simulator; messages outermost level first, "
         "critical = on the critical path, most over the roots)\n";
  for (const Platform& p : platforms(quick)) {
    const coll::LevelModel model =
        topo::level_model(levels_of(p, 0, p.block_sizes.size()), topo::LevelCosts{p.links});
    for (const Variant& v : variants(p))
      for (const std::int64_t bytes : sizes) {
        const Outcome o = simulate_variant(p, v, bytes, model);
        std::snprintf(line, sizeof line,
                      "%-9s %8d %-19s %8lld B %12.3f ms  messages %s  critical %s\n", p.name,
                      p.ranks, v.name, static_cast<long long>(bytes), o.time * 1e3,
                      counts_json(o.messages).c_str(), counts_json(o.critical).c_str());
        out << line;
        json += std::string(first ? "" : ", ") + "{\"platform\": \"" + p.name +
                "\", \"ranks\": " + std::to_string(p.ranks) +
                ", \"roots\": " + std::to_string(p.roots) + ", \"levels\": " + names_json(p) +
                ", \"variant\": \"" + v.name + "\", \"bytes\": " + std::to_string(bytes) +
                ", \"time_s\": " + seconds_json(o.time) +
                ", \"messages\": " + counts_json(o.messages) +
                ", \"critical\": " + counts_json(o.critical) + "}";
        first = false;
      }
  }
  return json + "]}";
}

}  // namespace scomm::bench
