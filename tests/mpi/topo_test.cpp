// Topology levels under mpirun: emulated topologies from the environment (SCOMM_TOPO_BLOCKS,
// per-rank SCOMM_TOPO_COLORS, SCOMM_TOPO_FILE) read by SCOMM_Init, compared on the world, a split
// and a local range with levels computed here from the same specification; the node level
// against MPI_Comm_split_type; bad settings give the same error at every rank.
#include <gtest/gtest.h>
#include <mpi.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "scomm.h"
#include "scomm/capi/context.hpp"
#include "scomm_fixture.hpp"

namespace {

using Colors = std::vector<std::vector<int>>;  // [rank][level]
// A level's color of each world rank.
using WorldLevel = std::function<std::int64_t(int world_rank)>;

constexpr const char* kVariables[] = {"SCOMM_TOPO",        "SCOMM_TOPO_FILE",  "SCOMM_TOPO_COLORS",
                                      "SCOMM_TOPO_BLOCKS", "SCOMM_TOPO_HWLOC", "SCOMM_TOPO_NODE",
                                      "SCOMM_CORES_SHARED"};

// SCOMM_Init with exactly these SCOMM_TOPO* settings (hwloc levels off unless given); the
// variables are cleared again before the test goes on.
int init_with(std::vector<std::pair<const char*, std::string>> settings) {
  for (const char* variable : kVariables) unsetenv(variable);
  setenv("SCOMM_TOPO_HWLOC", "none", 1);
  for (const auto& [variable, value] : settings) setenv(variable, value.c_str(), 1);
  const int code = SCOMM_Init();
  for (const char* variable : kVariables) unsetenv(variable);
  return code;
}

// The levels of the members (world ranks, in communicator order), written out by definition:
// at level l a rank's cluster is the list of its colors at levels 0..l, and clusters are numbered
// in order of first appearance.
Colors expected_colors(const std::vector<WorldLevel>& levels, const std::vector<int>& members) {
  Colors out(members.size());
  std::vector<std::map<std::vector<std::int64_t>, int>> numbers(levels.size());
  for (std::size_t i = 0; i < members.size(); ++i) {
    std::vector<std::int64_t> path;
    for (std::size_t l = 0; l < levels.size(); ++l) {
      path.push_back(levels[l](members[i]));
      const auto [it, added] = numbers[l].try_emplace(path, static_cast<int>(numbers[l].size()));
      out[i].push_back(it->second);
    }
  }
  return out;
}

Colors actual_colors(SCOMM_Comm comm) {
  int size = 0, flag = 0;
  SCOMM_Comm_size(comm, &size);
  int* depths = nullptr;
  int** colors = nullptr;
  EXPECT_EQ(SCOMM_Comm_get_attr(comm, SCOMM_TOPOLOGY_DEPTHS, &depths, &flag), SCOMM_SUCCESS);
  EXPECT_EQ(flag, 1);
  EXPECT_EQ(SCOMM_Comm_get_attr(comm, SCOMM_TOPOLOGY_COLORS, &colors, &flag), SCOMM_SUCCESS);
  EXPECT_EQ(flag, 1);
  Colors out(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) out[r].assign(colors[r], colors[r] + depths[r]);
  return out;
}

std::vector<std::string> level_names(SCOMM_Comm comm) {
  int* depths = nullptr;
  int flag = 0;
  SCOMM_Comm_get_attr(comm, SCOMM_TOPOLOGY_DEPTHS, &depths, &flag);
  std::vector<std::string> names;
  for (int l = 0; l < depths[0]; ++l) {
    char name[SCOMM_MAX_OBJECT_NAME];
    int length = 0;
    EXPECT_EQ(SCOMM_Topo_level_name(comm, l, name, &length), SCOMM_SUCCESS);
    names.emplace_back(name, static_cast<std::size_t>(length));
  }
  return names;
}

// World ranks of this rank's node, as MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) reports them.
std::vector<int> node_members() {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world_rank(), MPI_INFO_NULL, &node);
  std::vector<int> members = members_of_mpi(node);
  MPI_Comm_free(&node);
  std::sort(members.begin(), members.end());
  return members;
}

// Whether the nodes split the world into clusters of which some has two ranks or more: then
// discovery adds the node level below the user's levels (when it splits their clusters).
bool node_level_expected(const std::vector<WorldLevel>& user) {
  const int size = world_size();
  const std::vector<int> mine = node_members();
  const int lowest = mine.front();
  std::vector<int> leaders(static_cast<std::size_t>(size));
  MPI_Allgather(&lowest, 1, MPI_INT, leaders.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<int> world(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) world[r] = r;
  std::vector<WorldLevel> with_node = user;
  with_node.push_back([leaders](int r) { return leaders[r]; });
  auto clusters = [&](const std::vector<WorldLevel>& levels) {
    if (levels.empty()) return 1;
    const Colors colors = expected_colors(levels, world);
    int most = 0;
    for (const auto& row : colors) most = std::max(most, row.back() + 1);
    return most;
  };
  const int node_clusters = clusters(with_node);
  return node_clusters > clusters(user) && node_clusters < size;
}

// The world's levels: the user's, plus the node level where the machine has one.
std::vector<WorldLevel> world_levels(std::vector<WorldLevel> user) {
  if (node_level_expected(user)) {
    const std::vector<int> mine = node_members();
    std::vector<int> leaders(static_cast<std::size_t>(world_size()));
    MPI_Allgather(&mine.front(), 1, MPI_INT, leaders.data(), 1, MPI_INT, MPI_COMM_WORLD);
    user.push_back([leaders](int r) { return leaders[r]; });
  }
  return user;
}

// The world, the odd/even halves in reverse order (a split), every other rank from the last down
// (a local range), and a duplicate of the world: the levels of each, as computed here.
void expect_levels_everywhere(const std::vector<WorldLevel>& levels) {
  const int rank = world_rank(), size = world_size();
  std::vector<int> world(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) world[r] = r;
  EXPECT_EQ(actual_colors(SCOMM_COMM_WORLD), expected_colors(levels, world)) << "world";

  SCOMM_Comm parity = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_split(SCOMM_COMM_WORLD, rank % 2, -rank, &parity), SCOMM_SUCCESS);
  EXPECT_EQ(actual_colors(parity), expected_colors(levels, members_of(parity))) << "split";
  SCOMM_Comm_free(&parity);

  SCOMM_Comm range = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, size - 1, 0, -2, &range), SCOMM_SUCCESS);
  if (range != SCOMM_COMM_NULL) {
    EXPECT_EQ(actual_colors(range), expected_colors(levels, members_of(range))) << "range";
    SCOMM_Comm_free(&range);
  }

  SCOMM_Comm dup = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &dup), SCOMM_SUCCESS);
  EXPECT_EQ(actual_colors(dup), expected_colors(levels, world)) << "dup";
  SCOMM_Comm_free(&dup);
}

std::vector<std::string> with_node_name(std::vector<std::string> names,
                                        const std::vector<WorldLevel>& user) {
  if (node_level_expected(user)) names.emplace_back("node");
  return names;
}

TEST(TopoLevels, BlocksOfConsecutiveRanks) {
  ASSERT_EQ(init_with({{"SCOMM_TOPO_BLOCKS", "site=4,machine=2"}}), SCOMM_SUCCESS);
  const std::vector<WorldLevel> user{[](int r) { return r / 4; }, [](int r) { return r / 2; }};
  EXPECT_EQ(level_names(SCOMM_COMM_WORLD), with_node_name({"site", "machine"}, user));
  expect_levels_everywhere(world_levels(user));
  ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
}

// Blocks that do not nest: an inner block crossing an outer boundary is cut there.
TEST(TopoLevels, BlocksThatDoNotNest) {
  ASSERT_EQ(init_with({{"SCOMM_TOPO_BLOCKS", "site=3,machine=2"}}), SCOMM_SUCCESS);
  expect_levels_everywhere(
      world_levels({[](int r) { return r / 3; }, [](int r) { return r / 2; }}));
  ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
}

// Each rank names its own clusters (MPMD launches set different values): clusters of ranks that
// are not consecutive, and an inner level that reuses colors in different outer clusters.
TEST(TopoLevels, PerRankColors) {
  auto site = [](int r) { return static_cast<std::int64_t>((r * 7) % 3); };
  auto lan = [](int r) { return static_cast<std::int64_t>(r % 2 + 10); };
  const int rank = world_rank();
  ASSERT_EQ(init_with({{"SCOMM_TOPO_COLORS", "site=" + std::to_string(site(rank)) +
                                                 ",lan=" + std::to_string(lan(rank))}}),
            SCOMM_SUCCESS);
  EXPECT_EQ(level_names(SCOMM_COMM_WORLD), with_node_name({"site", "lan"}, {site, lan}));
  expect_levels_everywhere(world_levels({site, lan}));
  ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
}

std::string write_topology_file(const std::string& header,
                                const std::function<std::string(int)>& line) {
  const std::string path = "topo_test_rank" + std::to_string(world_rank()) + ".txt";
  std::ofstream out(path);
  out << header << "# a comment\n\n";
  for (int r = 0; r < world_size(); ++r) out << line(r) << "\n";
  return path;
}

TEST(TopoLevels, TopologyFile) {
  const std::string path = write_topology_file("# levels: rack host\n", [](int r) {
    return std::to_string(r % 2) + "  " + std::to_string(-(r / 3));
  });
  ASSERT_EQ(init_with({{"SCOMM_TOPO_FILE", path}}), SCOMM_SUCCESS);
  const std::vector<WorldLevel> user{[](int r) { return r % 2; }, [](int r) { return -(r / 3); }};
  EXPECT_EQ(level_names(SCOMM_COMM_WORLD), with_node_name({"rack", "host"}, user));
  expect_levels_everywhere(world_levels(user));
  ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
  std::remove(path.c_str());
}

TEST(TopoLevels, TopologyFileWithoutHeaderNamesItsLevels) {
  const std::string path = write_topology_file("", [](int r) { return std::to_string(r / 2); });
  ASSERT_EQ(init_with({{"SCOMM_TOPO_FILE", path}}), SCOMM_SUCCESS);
  const std::vector<WorldLevel> user{[](int r) { return r / 2; }};
  EXPECT_EQ(level_names(SCOMM_COMM_WORLD), with_node_name({"user0"}, user));
  expect_levels_everywhere(world_levels(user));
  ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
  std::remove(path.c_str());
}

TEST(TopoLevels, OffMeansNoLevels) {
  ASSERT_EQ(init_with({{"SCOMM_TOPO", "off"}, {"SCOMM_TOPO_BLOCKS", "site=2"}}), SCOMM_SUCCESS);
  const Colors colors = actual_colors(SCOMM_COMM_WORLD);
  EXPECT_EQ(colors, Colors(static_cast<std::size_t>(world_size())));
  ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
}

// Without user levels, the only level can be the node's: its clusters are exactly the rank sets
// of MPI_Comm_split_type, or there is no level when the nodes split nothing (one node, or a rank
// per node).
TEST(TopoLevels, NodeLevelIsMpiSharedMemoryDomain) {
  ASSERT_EQ(init_with({}), SCOMM_SUCCESS);
  const std::vector<int> node = node_members();
  const Colors colors = actual_colors(SCOMM_COMM_WORLD);
  const int rank = world_rank(), size = world_size();
  if (colors[rank].empty()) {
    EXPECT_TRUE(node_level_expected({}) == false);
    EXPECT_TRUE(static_cast<int>(node.size()) == size || node.size() == 1u);
  } else {
    EXPECT_EQ(level_names(SCOMM_COMM_WORLD), std::vector<std::string>{"node"});
    std::vector<int> same;
    for (int r = 0; r < size; ++r)
      if (colors[r][0] == colors[rank][0]) same.push_back(r);
    EXPECT_EQ(same, node);
  }
  ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
}

// Node-internal levels from each process's binding: on a synthetic machine of two packages of
// one CPU each (hwloc reads HWLOC_SYNTHETIC; HWLOC_THISSYSTEM lets it report the real binding),
// rank r bound to CPU r % 2 is in package r % 2. A level of two packages splits the node from
// three ranks on; with two it would be singletons, and unbound it says nothing.
TEST(TopoLevels, PackagesFromTheBinding) {
  if (sysconf(_SC_NPROCESSORS_ONLN) < 2) GTEST_SKIP() << "needs two CPUs";
  const std::vector<int> cpus{0, 1};
  cpu_set_t original, one;
  ASSERT_EQ(sched_getaffinity(0, sizeof original, &original), 0);
  CPU_ZERO(&one);
  CPU_SET(cpus[static_cast<std::size_t>(world_rank() % 2)], &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  const std::string machine = "package:2 core:1 pu:1(indexes=" + std::to_string(cpus[0]) + "," +
                              std::to_string(cpus[1]) + ")";
  setenv("HWLOC_SYNTHETIC", machine.c_str(), 1);
  setenv("HWLOC_THISSYSTEM", "1", 1);
  const int code = init_with({{"SCOMM_TOPO_HWLOC", "package"}});
  unsetenv("HWLOC_SYNTHETIC");
  unsetenv("HWLOC_THISSYSTEM");
  ASSERT_EQ(sched_setaffinity(0, sizeof original, &original), 0);
  ASSERT_EQ(code, SCOMM_SUCCESS);
  const bool one_node = static_cast<int>(node_members().size()) == world_size();
  if (one_node) {
    const std::vector<WorldLevel> levels{[](int r) { return r % 2; }};
    if (world_size() >= 3) {
      EXPECT_EQ(level_names(SCOMM_COMM_WORLD), std::vector<std::string>{"package"});
      expect_levels_everywhere(levels);
    } else {
      EXPECT_EQ(actual_colors(SCOMM_COMM_WORLD), Colors(static_cast<std::size_t>(world_size())));
    }
  }
  ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
}

// A bad setting fails SCOMM_Init at every rank with SCOMM_ERR_ARG (no hang, nothing left
// initialized); the rank that holds it names the variable.
void expect_rejected(std::vector<std::pair<const char*, std::string>> settings, const char* named) {
  const int code = init_with(std::move(settings));
  EXPECT_EQ(error_class_of(code), SCOMM_ERR_ARG);
  char text[SCOMM_MAX_ERROR_STRING];
  int length = 0;
  SCOMM_Error_string(code, text, &length);
  if (named != nullptr) {
    EXPECT_NE(std::string(text).find(named), std::string::npos) << text;
  }
  EXPECT_EQ(init_with({}), SCOMM_SUCCESS);  // nothing was left half-initialized
  EXPECT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
}

TEST(TopoLevels, BadSettingsAreErrorsAtEveryRank) {
  expect_rejected({{"SCOMM_TOPO", "maybe"}}, "SCOMM_TOPO");
  expect_rejected({{"SCOMM_TOPO_NODE", "no"}}, "SCOMM_TOPO_NODE");
  expect_rejected({{"SCOMM_TOPO_COLORS", "site=x"}}, "SCOMM_TOPO_COLORS");
  expect_rejected({{"SCOMM_TOPO_COLORS", "site"}}, "SCOMM_TOPO_COLORS");
  expect_rejected({{"SCOMM_TOPO_COLORS", "site=1,site=2"}}, "SCOMM_TOPO_COLORS");
  expect_rejected({{"SCOMM_TOPO_BLOCKS", "site=0"}}, "SCOMM_TOPO_BLOCKS");
  expect_rejected({{"SCOMM_TOPO_BLOCKS", "site=2"}, {"SCOMM_TOPO_COLORS", "site=1"}},
                  "at most one");
  expect_rejected({{"SCOMM_TOPO_HWLOC", "gpu"}}, "SCOMM_TOPO_HWLOC");
  expect_rejected({{"SCOMM_TOPO_FILE", "/nonexistent/topology"}}, "SCOMM_TOPO_FILE");
}

TEST(TopoLevels, BadFilesAreErrors) {
  const std::string extra = write_topology_file(
      "", [](int r) { return r == 0 ? std::string("0\n0") : std::to_string(r); });
  expect_rejected({{"SCOMM_TOPO_FILE", extra}}, "rank lines");
  const std::string ragged = write_topology_file("# levels: a b\n", [](int r) {
    return r == world_size() - 1 ? std::string("1") : std::string("1 2");
  });
  expect_rejected({{"SCOMM_TOPO_FILE", ragged}}, "colors for 2 levels");
  const std::string words = write_topology_file("", [](int) { return std::string("rack1"); });
  expect_rejected({{"SCOMM_TOPO_FILE", words}}, "not an integer");
  for (const std::string& path : {extra, ragged, words}) std::remove(path.c_str());
}

// One rank's bad or different setting fails every rank's SCOMM_Init.
TEST(TopoLevels, SettingsOfOneRankFailEveryRank) {
  const int rank = world_rank(), last = world_size() - 1;
  expect_rejected({{"SCOMM_TOPO_COLORS", rank == last ? "site=?" : "site=1"}},
                  rank == last ? "SCOMM_TOPO_COLORS" : nullptr);
  if (last == 0) return;
  expect_rejected({{"SCOMM_TOPO_COLORS", rank == 0 ? "site=1" : "lan=1"}}, "differ");
  expect_rejected({{"SCOMM_TOPO_BLOCKS", rank == 0 ? "site=1" : "site=2"}}, "differ");
  expect_rejected({{"SCOMM_TOPO", rank == 0 ? "off" : "on"}}, "differ");
  expect_rejected({{"SCOMM_TOPO_NODE", rank == 0 ? "off" : "on"}}, "differ");
}

TEST(TopoLevels, AttributeQueriesCheckTheirArguments) {
  ASSERT_EQ(init_with({{"SCOMM_TOPO_BLOCKS", "site=2"}}), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_set_errhandler(SCOMM_COMM_WORLD, SCOMM_ERRORS_RETURN), SCOMM_SUCCESS);
  int* depths = nullptr;
  int flag = 0;
  EXPECT_EQ(error_class_of(SCOMM_Comm_get_attr(SCOMM_COMM_WORLD, 99, &depths, &flag)),
            SCOMM_ERR_ARG);
  EXPECT_EQ(error_class_of(
                SCOMM_Comm_get_attr(SCOMM_COMM_WORLD, SCOMM_TOPOLOGY_DEPTHS, &depths, nullptr)),
            SCOMM_ERR_ARG);
  EXPECT_EQ(
      error_class_of(SCOMM_Comm_get_attr(SCOMM_COMM_NULL, SCOMM_TOPOLOGY_DEPTHS, &depths, &flag)),
      SCOMM_ERR_COMM);
  char name[SCOMM_MAX_OBJECT_NAME];
  int length = 0;
  const int depth = static_cast<int>(level_names(SCOMM_COMM_WORLD).size());
  EXPECT_EQ(error_class_of(SCOMM_Topo_level_name(SCOMM_COMM_WORLD, depth, name, &length)),
            SCOMM_ERR_ARG);
  EXPECT_EQ(error_class_of(SCOMM_Topo_level_name(SCOMM_COMM_WORLD, -1, name, &length)),
            SCOMM_ERR_ARG);
  ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
}

// SCOMM_Init told by SCOMM_CORES_SHARED (`value`, or hwloc where empty) whether the ranks share
// cores, then finalized: what the collective selection was told, checked to be the same at every
// rank.
bool cores_shared_after_init(const std::string& value, bool topology_off = false) {
  std::vector<std::pair<const char*, std::string>> settings;
  if (!value.empty()) settings.emplace_back("SCOMM_CORES_SHARED", value);
  if (topology_off) settings.emplace_back("SCOMM_TOPO", "off");
  EXPECT_EQ(init_with(std::move(settings)), SCOMM_SUCCESS);
  const int shared = scomm::capi::context().coll_selection.cores_shared() ? 1 : 0;
  int fewest = 0, most = 0;
  MPI_Allreduce(&shared, &fewest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&shared, &most, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(fewest, most) << "the ranks disagree on whether cores are shared";
  EXPECT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
  return shared != 0;
}

TEST(CoresShared, TheSettingDecidesAndOneSharingRankIsEnough) {
  EXPECT_FALSE(cores_shared_after_init("0"));
  EXPECT_TRUE(cores_shared_after_init("1"));
  EXPECT_EQ(cores_shared_after_init(world_rank() == world_size() - 1 ? "1" : "0"), true);
}

// More ranks on one node than it has CPUs online share cores (hwloc counts no more CPUs than are
// online); whatever the machine, every rank is told the same. With the topology off, the check
// counts the node's ranks itself, and says the same.
TEST(CoresShared, MoreRanksThanCpusShare) {
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  const auto on_this_node = static_cast<long>(node_members().size());
  for (const bool topology_off : {false, true}) {
    const bool shared = cores_shared_after_init("", topology_off);
    if (on_this_node > cpus) {
      EXPECT_TRUE(shared) << on_this_node << " ranks, " << cpus << " CPUs";
    }
    if (world_size() == 1) {
      EXPECT_FALSE(shared);
    }
  }
}

TEST(CoresShared, ABadSettingIsAnErrorAtEveryRank) {
  const bool last = world_rank() == world_size() - 1;
  const int code = init_with({{"SCOMM_CORES_SHARED", last ? "yes" : "0"}});
  EXPECT_EQ(error_class_of(code), SCOMM_ERR_ARG);
  char text[SCOMM_MAX_ERROR_STRING];
  int length = 0;
  SCOMM_Error_string(code, text, &length);
  EXPECT_NE(std::string(text).find(last ? "'yes'" : "another rank"), std::string::npos) << text;
  EXPECT_EQ(init_with({}), SCOMM_SUCCESS);  // nothing was left half-initialized
  EXPECT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
}

}  // namespace
