// Placement inside a node on synthetic hwloc machines: the object of each level that holds all
// of a process's CPUs, kUnplaced when they spread over several.
#include "scomm/topo/hwloc_placement.hpp"

#include <gtest/gtest.h>

#include "scomm/base/error.hpp"

namespace scomm::topo {
namespace {

using enum NodeLevel;

// 2 packages x 2 NUMA domains x 2 L3 caches x 2 cores: CPU c is in package c / 8, NUMA domain
// c / 4, L3 cache c / 2.
NodeTopology machine() {
  return NodeTopology::synthetic("package:2 numa:2 l3:2 core:2 pu:1");
}

TEST(HwlocPlacement, LevelsNamesParsed) {
  EXPECT_EQ(parse_node_levels("package,numa,l3", "V"),
            (std::vector<NodeLevel>{kPackage, kNuma, kL3}));
  EXPECT_EQ(parse_node_levels("l3,package", "V"), (std::vector<NodeLevel>{kL3, kPackage}));
  EXPECT_TRUE(parse_node_levels("none", "V").empty());
  for (const char* text : {"", "socket", "numa,numa", "none,l3", "numa,"})
    EXPECT_THROW(parse_node_levels(text, "SCOMM_TOPO_HWLOC"), Error) << text;
  EXPECT_EQ(name_of(kNuma), "numa");
}

TEST(HwlocPlacement, OneCpuIsInOneObjectOfEachLevel) {
  const std::vector<NodeLevel> levels{kPackage, kNuma, kL3};
  for (unsigned cpu = 0; cpu < 16; ++cpu) {
    const std::vector<unsigned> cpus{cpu};
    EXPECT_EQ(machine().place(cpus, levels), (std::vector<std::int64_t>{cpu / 8, cpu / 4, cpu / 2}))
        << cpu;
  }
}

TEST(HwlocPlacement, SpreadCpusArePlacedOnlyWhereOneObjectHoldsThem) {
  const std::vector<NodeLevel> levels{kPackage, kNuma, kL3};
  const std::vector<unsigned> l3{4, 5}, numa{4, 7}, package{8, 15}, all{0, 15};
  EXPECT_EQ(machine().place(l3, levels), (std::vector<std::int64_t>{0, 1, 2}));
  EXPECT_EQ(machine().place(numa, levels), (std::vector<std::int64_t>{0, 1, kUnplaced}));
  EXPECT_EQ(machine().place(package, levels), (std::vector<std::int64_t>{1, kUnplaced, kUnplaced}));
  EXPECT_EQ(machine().place(all, levels),
            (std::vector<std::int64_t>{kUnplaced, kUnplaced, kUnplaced}));
  EXPECT_EQ(machine().place({}, levels), (std::vector<std::int64_t>(3, kUnplaced)));
}

TEST(HwlocPlacement, ThisMachineLoads) {
  const NodeTopology here = NodeTopology::of_this_machine();
  const std::vector<unsigned> cpus = here.binding_of_this_process();
  ASSERT_FALSE(cpus.empty());
  // A CPU the process may use is in some package.
  const std::vector<unsigned> first{cpus.front()};
  const std::vector<NodeLevel> package{kPackage};
  EXPECT_GE(here.place(first, package).front(), 0);
}

TEST(HwlocPlacement, BadSyntheticDescription) {
  EXPECT_THROW(NodeTopology::synthetic("package:x"), Error);
}

}  // namespace
}  // namespace scomm::topo
