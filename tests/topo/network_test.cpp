// Link costs from SCOMM_TOPO_LINKS, and the levels a tree leaves out for a message: checked
// against the simulator on the seed's platform (48 ranks, 16 per machine, two machines at one
// site and one at the other), where relaying over the site's LAN costs more than a second WAN
// message for small messages and less for large ones.
#include "scomm/topo/network.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "scomm/base/error.hpp"
#include "scomm/coll/simulator.hpp"
#include "scomm/topo/bcast_multilevel.hpp"
#include "scomm/topo/level_model.hpp"

namespace scomm::topo {
namespace {

constexpr int kNetworkRanks = 48;
const std::vector<std::string> kNames = {"site", "machine"};
constexpr const char* kSeedLinks =
    "site=1ms:100MB/s:5us,machine=100us:1GB/s:1us,inside=1us:10GB/s:1us";

Levels seed_levels() {
  std::vector<std::int64_t> site(kNetworkRanks), machine(kNetworkRanks);
  for (int r = 0; r < kNetworkRanks; ++r) {
    site[static_cast<std::size_t>(r)] = r < 32 ? 0 : 1;
    machine[static_cast<std::size_t>(r)] = r / 16;
  }
  return Levels::from_colors(kNames, {site, machine});
}

TEST(LevelCostsConfigured, NamedLinksOverrideTheDefaults) {
  const LevelCosts defaults = LevelCosts::defaults(2);
  const LevelCosts costs = LevelCosts::configured(kNames, "machine=100us:2GB/s:3us,inside=20ns");
  ASSERT_EQ(costs.links.size(), 3u);
  EXPECT_EQ(costs.link(0).latency, defaults.link(0).latency);  // site: not named
  EXPECT_DOUBLE_EQ(costs.link(1).latency, 100e-6);
  EXPECT_DOUBLE_EQ(costs.link(1).per_byte, 1 / 2e9);
  EXPECT_DOUBLE_EQ(costs.link(1).send_overhead, 3e-6);
  EXPECT_DOUBLE_EQ(costs.link(1).gap, 3e-6);
  EXPECT_DOUBLE_EQ(costs.link(2).latency, 20e-9);
  EXPECT_EQ(costs.link(2).per_byte, defaults.link(2).per_byte);  // bandwidth left out
  EXPECT_EQ(LevelCosts::configured(kNames, "").links.size(), defaults.links.size());
}

TEST(LevelCostsConfigured, MalformedEntriesAreErrors) {
  for (const char* bad : {"rack=1ms", "site", "site=1", "site=1 ms", "site=1ms:5", "site=1ms:0B/s",
                          "site=-1ms", "site=1ms:1GB/s:1us:1us", "site=1ms,", "=1ms"}) {
    try {
      (void)LevelCosts::configured(kNames, bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.error_class(), ErrorClass::kArg) << bad;
      EXPECT_NE(std::string(e.what()).find("SCOMM_TOPO_LINKS"), std::string::npos) << e.what();
    }
  }
}

TEST(Network, SmallMessagesSkipTheSiteRelayLargeOnesKeepIt) {
  const Network network(seed_levels(), LevelCosts::configured(kNames, kSeedLinks));
  const Network& small = network.for_message(1);
  ASSERT_EQ(small.levels().depth(), 1);
  EXPECT_EQ(small.levels().name(0), "machine");
  EXPECT_EQ(small.levels().clusters(0), 3);
  // The merged stage crosses the WAN: its link is the site level's.
  EXPECT_EQ(small.costs().link(0).latency, network.costs().link(0).latency);
  EXPECT_EQ(&network.for_message(1 << 20), &network);  // all levels
  EXPECT_EQ(&network.for_message(1), &small);          // built once
}

TEST(Network, DefaultCostsKeepEveryLevel) {
  const Network network(seed_levels(), LevelCosts::defaults(2));
  for (const std::int64_t bytes : {1, 1024, 1 << 20})
    EXPECT_EQ(&network.for_message(bytes), &network);
  const Network flat(Levels(), LevelCosts::defaults(0));
  EXPECT_EQ(&flat.for_message(1), &flat);
}

double simulated_bcast(const Network& network, const coll::LevelModel& model, int root,
                       std::int64_t bytes) {
  const coll::Simulation sim = coll::simulate(
      [&](const coll::Shape& s) {
        return bcast_multilevel(network.levels(), network.costs(), s, bytes, bytes);
      },
      kNetworkRanks, root, model);
  EXPECT_TRUE(sim.ok()) << sim.describe_problems();
  return sim.time;
}

double mean_bcast(const Network& network, const coll::LevelModel& model, std::int64_t bytes) {
  double sum = 0;
  for (int root = 0; root < kNetworkRanks; ++root)
    sum += simulated_bcast(network, model, root, bytes);
  return sum / kNetworkRanks;
}

// On the platform the costs describe, the tree for_message picks is, over all roots (the seed's
// benchmark), never slower than the full multilevel tree nor than either 2-level tree (by site,
// by machine). A single root may lose a port time: a merged stage does not know which of its
// participants sit behind the slower link, so it may reach the WAN second.
TEST(Network, TheChosenTreeIsNeverSlowerThanTheFixedOnes) {
  const Levels levels = seed_levels();
  const LevelCosts costs = LevelCosts::configured(kNames, kSeedLinks);
  const coll::LevelModel platform = level_model(levels, costs);
  const Network network(levels, costs);
  const Network by_machine(levels.keep({1}), LevelCosts{{costs.link(0), costs.link(2)}});
  const Network by_site(levels.keep({0}), LevelCosts{{costs.link(0), costs.link(1)}});
  for (const std::int64_t bytes : {1, 64, 4096, 65536, 1 << 20}) {
    const double chosen = mean_bcast(network.for_message(bytes), platform, bytes);
    for (const Network* fixed : {&network, &by_machine, &by_site})
      EXPECT_LE(chosen, mean_bcast(*fixed, platform, bytes) * (1 + 1e-9)) << bytes << " B";
  }
  // Where it leaves the site level out, it beats the full tree by most of a LAN hop.
  EXPECT_LT(mean_bcast(network.for_message(1), platform, 1),
            mean_bcast(network, platform, 1) - 20e-6);
}

}  // namespace
}  // namespace scomm::topo
