#include "scomm/topo/discovery.hpp"

#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scomm/base/environment.hpp"
#include "scomm/base/error.hpp"
#include "scomm/topo/hwloc_placement.hpp"
#include "scomm/topo/user_levels.hpp"

namespace scomm::topo {
namespace {

enum class Source { kNone, kFile, kColors, kBlocks };

// The levels kept so far and their colors per world rank, outermost first.
struct ColorStack {
  std::vector<std::string> names;
  std::vector<std::vector<std::int64_t>> colors;  // colors[level][rank]
};

// Pushes a discovered level (the node, an hwloc level) when, nested in the levels above, it
// splits some cluster and leaves some cluster of two ranks or more: otherwise it would only cost
// the schedules a level.
void push_if_informative(ColorStack& stack, std::string name, std::vector<std::int64_t> colors) {
  stack.names.push_back(std::move(name));
  stack.colors.push_back(std::move(colors));
  const Levels candidate = Levels::from_colors(stack.names, stack.colors);
  const int level = candidate.depth() - 1;
  const int above = level == 0 ? 1 : candidate.clusters(level - 1);
  if (candidate.clusters(level) > above && candidate.clusters(level) < candidate.size()) return;
  stack.names.pop_back();
  stack.colors.pop_back();
}

// What this rank's environment asks for.
struct Settings {
  bool off = false;
  bool node = true;  // SCOMM_TOPO_NODE=off leaves the node level out (2-level-by-site runs)
  Source source = Source::kNone;
  UserColors user;  // kFile, kBlocks: every rank's colors
  NamedValues own;  // kColors: this rank's colors only
  std::vector<NodeLevel> node_levels{NodeLevel::kPackage, NodeLevel::kNuma};
  std::string links;  // SCOMM_TOPO_LINKS, parsed once the levels are known
};

// Where this rank runs: its node (the lowest world rank on it) and its hwloc objects.
struct Placement {
  NodeOfRank node;
  std::vector<std::int64_t> objects;  // per settings.node_levels, or kUnplaced
};

// What every rank learns from one MAX reduction: anything above zero somewhere.
using Maxima = std::vector<std::uint64_t>;

// An unset or empty variable reads as null.
UserColors read_topology_file(const char* path, int world_size) {
  std::ifstream in(path);
  if (!in) throw Error(ErrorClass::kArg, std::string("SCOMM_TOPO_FILE: cannot open ") + path);
  return parse_topology_file(in, world_size, path);
}

// The user's levels: at most one of the three variables.
void read_user_levels(Settings& s, int world_size) {
  const char* file = base::setting("SCOMM_TOPO_FILE");
  const char* colors = base::setting("SCOMM_TOPO_COLORS");
  const char* blocks = base::setting("SCOMM_TOPO_BLOCKS");
  if ((file != nullptr) + (colors != nullptr) + (blocks != nullptr) > 1)
    throw Error(ErrorClass::kArg,
                "set at most one of SCOMM_TOPO_FILE, SCOMM_TOPO_COLORS and SCOMM_TOPO_BLOCKS");
  if (file != nullptr) {
    s.source = Source::kFile;
    s.user = read_topology_file(file, world_size);
  } else if (colors != nullptr) {
    s.source = Source::kColors;
    s.own = parse_named_values(colors, "SCOMM_TOPO_COLORS");
  } else if (blocks != nullptr) {
    s.source = Source::kBlocks;
    s.user = block_colors(parse_named_values(blocks, "SCOMM_TOPO_BLOCKS"), world_size);
  }
}

Settings read_settings(int world_size) {
  Settings s;
  if (const char* links = base::setting("SCOMM_TOPO_LINKS")) s.links = links;
  s.off = !base::switched_on("SCOMM_TOPO", true);
  if (s.off) return s;
  s.node = base::switched_on("SCOMM_TOPO_NODE", true);
  read_user_levels(s, world_size);
  if (const char* hwloc = base::setting("SCOMM_TOPO_HWLOC"))
    s.node_levels = parse_node_levels(hwloc, "SCOMM_TOPO_HWLOC");
  return s;
}

// FNV-1a over everything that must be equal at every rank: the switch, the source, the level
// names and, for a file or blocks, every rank's colors (two ranks reading different files differ).
class Fingerprint {
 public:
  void add(std::string_view text) {
    for (unsigned char c : text) mix(c);
    mix(0);
  }
  void add(std::int64_t value) {
    for (int byte = 0; byte < 8; ++byte) mix(static_cast<unsigned char>(value >> (8 * byte)));
  }
  std::uint64_t value() const noexcept { return hash_; }

 private:
  void mix(unsigned char c) noexcept { hash_ = (hash_ ^ c) * 0x100000001b3ull; }
  std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

std::uint64_t fingerprint(const Settings& s) {
  Fingerprint f;
  f.add(static_cast<std::int64_t>(s.off));
  f.add(static_cast<std::int64_t>(s.node));
  f.add(static_cast<std::int64_t>(s.source));
  for (const std::string& name : s.source == Source::kColors ? s.own.names : s.user.names)
    f.add(name);
  for (const auto& level : s.user.colors)
    for (std::int64_t color : level) f.add(color);
  for (NodeLevel level : s.node_levels) f.add(name_of(level));
  f.add(s.links);
  return f.value();
}

Maxima max_over(MPI_Comm world, Maxima local) {
  Maxima out(local.size());
  MPI_Allreduce(local.data(), out.data(), static_cast<int>(local.size()), MPI_UINT64_T, MPI_MAX,
                world);
  return out;
}

// This rank's entry in a MAX reduction that gives the lowest failing rank: size - rank, 0 if fine.
std::uint64_t failure_entry(bool failed, int world_rank, int world_size) {
  return failed ? static_cast<std::uint64_t>(world_size - world_rank) : 0;
}

// Every rank throws together when `entry` (the reduced failure_entry) says some rank failed:
// that rank with its own reason, the others naming the lowest failing rank.
void throw_if_failed_somewhere(std::uint64_t entry, const std::string& reason, int world_size) {
  if (entry == 0) return;
  const std::string rank = std::to_string(world_size - static_cast<int>(entry));
  throw Error(
      ErrorClass::kArg,
      "topology discovery: " + (reason.empty() ? "rank " + rank +
                                                     " failed (it reports why: its SCOMM_TOPO* "
                                                     "settings or hwloc)"
                                               : reason));
}

Settings agree_on_settings(MPI_Comm world, int world_rank, int world_size) {
  Settings s;
  std::string reason;
  try {
    s = read_settings(world_size);
  } catch (const Error& e) {
    reason = e.what();
  }
  const std::uint64_t hash = reason.empty() ? fingerprint(s) : 0;
  const Maxima all =
      max_over(world, {failure_entry(!reason.empty(), world_rank, world_size), hash, ~hash});
  throw_if_failed_somewhere(all[0], reason, world_size);
  if (all[1] != ~all[2])  // max(hash) != min(hash)
    throw Error(ErrorClass::kArg,
                "topology discovery: the ranks' settings differ (SCOMM_TOPO, _NODE, _HWLOC, "
                "_LINKS, or the level names or file of SCOMM_TOPO_FILE / _COLORS / _BLOCKS)");
  return s;
}

// This rank's node (MPI_COMM_TYPE_SHARED): how many of the world's ranks it holds, and the lowest.
NodeOfRank node_of(MPI_Comm world, int world_rank) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, world_rank, MPI_INFO_NULL, &node);
  NodeOfRank result;
  MPI_Comm_size(node, &result.size);
  MPI_Allreduce(&world_rank, &result.leader, 1, MPI_INT, MPI_MIN, node);
  MPI_Comm_free(&node);
  return result;
}

Placement place_this_process(MPI_Comm world, int world_rank,
                             const std::vector<NodeLevel>& node_levels, MachineOnDemand& machine) {
  Placement here;
  here.node = node_of(world, world_rank);
  // A rank alone on its node is a cluster of its own at every node level: nothing to load.
  here.objects.assign(node_levels.size(), 0);
  if (here.node.size > 1 && !node_levels.empty()) {
    const NodeTopology& topology = machine.get();
    here.objects = topology.place(topology.binding_of_this_process(), node_levels);
  }
  return here;
}

// The colors of every rank: `local` is this rank's, the same count at every rank.
std::vector<std::int64_t> allgather(MPI_Comm world, const std::vector<std::int64_t>& local,
                                    int world_size) {
  std::vector<std::int64_t> all(local.size() * static_cast<std::size_t>(world_size));
  if (!local.empty())
    MPI_Allgather(local.data(), static_cast<int>(local.size()), MPI_INT64_T, all.data(),
                  static_cast<int>(local.size()), MPI_INT64_T, world);
  return all;
}

// Column `column` of the rows of `width` values gathered per rank.
std::vector<std::int64_t> column(const std::vector<std::int64_t>& all, std::size_t width,
                                 std::size_t column) {
  std::vector<std::int64_t> out(all.size() / width);
  for (std::size_t r = 0; r < out.size(); ++r) out[r] = all[r * width + column];
  return out;
}

// The discovery's result, with the link costs SCOMM_TOPO_LINKS names for its levels. The same
// settings and levels at every rank: every rank returns the same costs, or throws the same error.
Discovered discovered(Levels levels, bool user_levels, const Settings& s) {
  std::vector<std::string> names;
  for (int l = 0; l < levels.depth(); ++l) names.push_back(levels.name(l));
  LevelCosts costs = LevelCosts::configured(names, s.links);
  return {std::move(levels), user_levels, std::move(costs), {}};
}

// This rank's placement, or why it failed (every rank throws together when one fails). Then,
// over the world: whether some node holds several ranks (entry 1), and per node level whether
// some rank is unplaced there (entry 2 + level: then the level says nothing and goes).
Maxima place_everywhere(MPI_Comm world, int world_rank, int world_size, const Settings& s,
                        Placement& here, MachineOnDemand& machine) {
  std::string reason;
  try {
    here = place_this_process(world, world_rank, s.node_levels, machine);
  } catch (const Error& e) {
    reason = e.what();
  }
  Maxima local{failure_entry(!reason.empty(), world_rank, world_size),
               static_cast<std::uint64_t>(here.node.size)};
  for (std::size_t l = 0; l < s.node_levels.size(); ++l)
    local.push_back(reason.empty() && here.objects[l] == kUnplaced);
  Maxima spread = max_over(world, local);
  throw_if_failed_somewhere(spread[0], reason, world_size);
  return spread;
}

// Every level's colors at every rank, in one allgather of this rank's own user colors, its node
// and its objects at the node levels placed everywhere (`spread` from place_everywhere).
ColorStack gather_colors(MPI_Comm world, int world_size, const Settings& s, const Placement& here,
                         const Maxima& spread) {
  std::vector<std::int64_t> mine(s.own.values);
  const bool shared_nodes = spread[1] > 1;
  std::vector<NodeLevel> placed;
  if (shared_nodes) {
    mine.push_back(here.node.leader);
    for (std::size_t l = 0; l < s.node_levels.size(); ++l)
      if (spread[2 + l] == 0) {
        placed.push_back(s.node_levels[l]);
        // Object numbers are per node (below 2^20): the node's leader above them.
        mine.push_back(std::int64_t{here.node.leader} << 20 | here.objects[l]);
      }
  }
  const std::vector<std::int64_t> all = allgather(world, mine, world_size);

  ColorStack stack{s.source == Source::kColors ? s.own.names : s.user.names, s.user.colors};
  for (std::size_t l = 0; l < s.own.values.size(); ++l)
    stack.colors.push_back(column(all, mine.size(), l));
  if (shared_nodes) {
    std::size_t next = s.own.values.size();
    std::vector<std::int64_t> nodes = column(all, mine.size(), next++);
    if (s.node) push_if_informative(stack, "node", std::move(nodes));
    for (NodeLevel level : placed)
      push_if_informative(stack, std::string(name_of(level)), column(all, mine.size(), next++));
  }
  return stack;
}

}  // namespace

Discovered discover_levels(MPI_Comm world, MachineOnDemand& machine) {
  int world_rank = 0, world_size = 0;
  MPI_Comm_rank(world, &world_rank);
  MPI_Comm_size(world, &world_size);
  Settings s = agree_on_settings(world, world_rank, world_size);
  if (s.off) {  // no levels, but the node, which SCOMM_Init needs
    Discovered result = discovered(Levels::blocks({}, {}, world_size), false, s);
    result.node = node_of(world, world_rank);
    return result;
  }

  Placement here;
  const Maxima spread = place_everywhere(world, world_rank, world_size, s, here, machine);
  ColorStack stack = gather_colors(world, world_size, s, here, spread);
  const bool user_levels = s.source != Source::kNone;
  Discovered result =
      stack.names.empty()
          ? discovered(Levels::blocks({}, {}, world_size), user_levels, s)
          : discovered(Levels::from_colors(std::move(stack.names), stack.colors), user_levels, s);
  result.node = here.node;
  return result;
}

}  // namespace scomm::topo
