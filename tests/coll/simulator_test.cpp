// The cost-model simulator: closed-form times and message counts of the classic algorithms,
// broken schedules caught, a million ranks.
#include "scomm/coll/simulator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>

#include "scomm/coll/allreduce_recursive_doubling.hpp"
#include "scomm/coll/barrier_dissemination.hpp"
#include "scomm/coll/bcast_binomial.hpp"

namespace scomm::coll {
namespace {

constexpr double kAlpha = 1.0, kBeta = 0.01;

int ceil_log2(int p) {
  int steps = 0;
  while ((1 << steps) < p) ++steps;
  return steps;
}

ScheduleBuilder bcast(std::int64_t count) {
  return [count](const Shape& s) { return bcast_binomial(s, count); };
}

TEST(Simulator, BinomialBcastTakesLogPHockneySteps) {
  const UniformModel model(Link::hockney(kAlpha, kBeta));
  for (int p : {1, 2, 3, 5, 6, 7, 8, 13, 16, 17, 100, 1000}) {
    for (std::int64_t count : {0, 1, 125}) {
      const int root = p / 3;
      const Simulation sim = simulate(bcast(count), p, root, model, {8, 8});
      ASSERT_TRUE(sim.ok()) << sim.describe_problems();
      const double step = kAlpha + static_cast<double>(count * 8) * kBeta;
      EXPECT_NEAR(sim.time, ceil_log2(p) * step, 1e-9) << "p=" << p << " count=" << count;
      EXPECT_EQ(sim.messages, p - 1);
      EXPECT_EQ(sim.bytes, (p - 1) * count * 8);
      // Every odd relative rank ends last (its last hop is its parent's last send); the
      // longest chain of messages among them is the largest popcount below p.
      int longest = 0;
      for (int r = 1; r < p; r += 2) longest = std::max(longest, std::popcount(unsigned(r)));
      EXPECT_EQ(sim.critical_messages, p == 1 ? 0 : longest) << p;
      EXPECT_EQ(sim.completion[static_cast<std::size_t>(root)], ceil_log2(p) * step);
    }
  }
}

TEST(Simulator, DisseminationBarrierTakesCeilLog2PRounds) {
  const UniformModel model(Link::hockney(kAlpha, kBeta));
  for (int p = 1; p <= 33; ++p) {
    const Simulation sim = simulate(barrier_dissemination, p, 0, model);
    ASSERT_TRUE(sim.ok()) << sim.describe_problems();
    EXPECT_EQ(sim.max_rounds, ceil_log2(p));
    EXPECT_NEAR(sim.time, ceil_log2(p) * kAlpha, 1e-9);
    EXPECT_EQ(sim.messages, std::int64_t{p} * ceil_log2(p));
    EXPECT_EQ(sim.bytes, 0);
  }
}

TEST(Simulator, RecursiveDoublingAllreduceMessages) {
  const LocalCost local{0.001, 0.002};
  const UniformModel model(Link::hockney(kAlpha, kBeta), local);
  const std::int64_t count = 10;
  const double bytes = static_cast<double>(count) * 4;
  auto build = [count](const Shape& s) { return allreduce_recursive_doubling(s, count, false); };
  for (int p = 1; p <= 40; ++p) {
    const Simulation sim = simulate(build, p, 0, model, {4, 4});
    ASSERT_TRUE(sim.ok()) << sim.describe_problems();
    const int pof2 = floor_pow2(p), rem = p - pof2, steps = ceil_log2(pof2);
    EXPECT_EQ(sim.messages, std::int64_t{pof2} * steps + 2 * rem) << p;
    EXPECT_EQ(sim.bytes, sim.messages * count * 4);
    if (rem == 0) {
      // Per step an exchange and a reduction (the first receives into the result: no copy of
      // the input but on a rank alone).
      const double expected = (steps == 0 ? bytes * local.copy_per_byte : 0) +
                              steps * (kAlpha + bytes * kBeta + bytes * local.reduce_per_byte);
      EXPECT_NEAR(sim.time, expected, 1e-9) << p;
      EXPECT_EQ(sim.critical_messages, steps);
    }
  }
}

TEST(Simulator, LogGPChargesBothOverheadsTheWireAndTheGap) {
  // Rank 0 sends two messages of 10 bytes to rank 1 in one round.
  auto build = [](const Shape& s) {
    Schedule schedule;
    const Block block{kOutput, 0, 10};
    if (s.rank == 0) schedule.next_round().send(1, block).send(1, block);
    if (s.rank == 1) schedule.next_round().receive(0, block).receive(0, block);
    return schedule;
  };
  const double L = 5, o = 1, g = 4, G = 0.1;
  const Simulation sim = simulate(build, 2, 0, UniformModel(Link::loggp(L, o, g, G)));
  ASSERT_TRUE(sim.ok()) << sim.describe_problems();
  // First leaves at 0, arrives at o + 10G + L = 7, received by 8; the second leaves at g = 4,
  // arrives at 11, received by 12. The sender is done when its second message has left: 6.
  EXPECT_NEAR(sim.completion[0], g + o + 10 * G, 1e-12);
  EXPECT_NEAR(sim.completion[1], g + o + 10 * G + L + o, 1e-12);
  EXPECT_EQ(sim.critical_messages, 1);
}

TEST(Simulator, BackToBackCallsOverlapWhereTheSenderIsFreeBeforeItsMessagesArrive) {
  // Two ranks, one message per call. LogGP: the root is free again after o, so call k's message
  // leaves at k o and is received by k o + o + L + o; the leaf ends call k then.
  const double L = 10, o = 1;
  const UniformModel loggp(Link::loggp(L, o, 0, 0));
  const Simulation one = simulate(bcast(0), 2, 0, loggp);
  const Simulation four = simulate(bcast(0), 2, 0, loggp, {}, 4);
  ASSERT_TRUE(four.ok()) << four.describe_problems();
  EXPECT_NEAR(one.time, o + L + o, 1e-12);
  EXPECT_NEAR(four.time, 3 * o + o + L + o, 1e-12);
  EXPECT_NEAR(four.completion[0], 4 * o, 1e-12);
  EXPECT_EQ(four.messages, 4);
  EXPECT_EQ(four.max_rounds, 4);
  // Hockney's sender is busy until its message arrives: calls add up.
  const Simulation hockney = simulate(bcast(0), 2, 0, UniformModel(Link::hockney(5, 0)), {}, 3);
  EXPECT_NEAR(hockney.time, 15, 1e-12);
  // A deadlock in one call is one in the loop too, and no calls simulate nothing.
  auto silent = [](const Shape& s) {
    Schedule schedule;
    if (s.rank == 1) schedule.next_round().receive(0, Block{kOutput, 0, 1});
    return schedule;
  };
  EXPECT_FALSE(simulate(silent, 2, 0, loggp, {}, 3).ok());
  EXPECT_EQ(simulate(bcast(0), 2, 0, loggp, {}, 0).messages, 0);
}

TEST(Simulator, MessagesAboveTheEagerLimitCostTheRendezvousProtocol) {
  const Link link = Link::hockney_protocols(kAlpha, kBeta, 4096, 3 * kAlpha, kBeta / 2);
  EXPECT_DOUBLE_EQ(link.port_time(0), kAlpha);
  EXPECT_DOUBLE_EQ(link.port_time(4096), kAlpha + 4096 * kBeta);
  EXPECT_DOUBLE_EQ(link.port_time(4097), 3 * kAlpha + 4097 * kBeta / 2);
  // A binomial broadcast pays the protocol of its message size at every step.
  const UniformModel model(link);
  for (const std::int64_t count : {512, 513}) {
    const Simulation sim = simulate(bcast(count), 8, 0, model, {8, 8});
    ASSERT_TRUE(sim.ok()) << sim.describe_problems();
    EXPECT_NEAR(sim.time, 3 * link.port_time(count * 8), 1e-9) << count;
  }
}

TEST(Simulator, ARendezvousMessageMovesOnceItsReceiveIsPosted) {
  // Rank 0 sends 100 bytes at once; rank 1 first copies 1,000 bytes (one time unit each), then
  // receives them. Above the eager limit the bytes move only from then on.
  auto build = [](const Shape& s) {
    Schedule schedule;
    const Slot temp = schedule.add_temp(TypeId::kByte, 1000);
    if (s.rank == 0) schedule.next_round().send(1, Block{temp, 0, 100});
    if (s.rank == 1) {
      schedule.next_round().copy(Block{temp, 0, 1000}, Block{temp, 0, 1000});
      schedule.next_round().receive(0, Block{temp, 0, 100});
    }
    return schedule;
  };
  const LocalCost copy{1.0, 0.0};
  const Link eager = Link::hockney_protocols(1, 0, 100, 3, 0.5);
  const Link rendezvous = Link::hockney_protocols(1, 0, 99, 3, 0.5);
  const Simulation early = simulate(build, 2, 0, UniformModel(eager, copy));
  const Simulation late = simulate(build, 2, 0, UniformModel(rendezvous, copy));
  ASSERT_TRUE(early.ok() && late.ok()) << late.describe_problems();
  EXPECT_NEAR(early.completion[1], 1000, 1e-9);  // arrived at 1 while rank 1 copied
  EXPECT_NEAR(late.completion[1], 1000 + 100 * 0.5, 1e-9);
  EXPECT_NEAR(late.completion[0], 3 + 100 * 0.5, 1e-9);  // the sender is not charged the wait
}

TEST(Simulator, TwoLevelModelCountsMessagesPerLevel) {
  // Nodes of 4 ranks: 1 time unit inside a node, 10 between nodes.
  const LevelModel model = LevelModel::nodes(4, Link::hockney(1, 0), Link::hockney(10, 0));
  ASSERT_EQ(model.levels(), 2);
  EXPECT_EQ(model.level(1, 3), 0);
  EXPECT_EQ(model.level(3, 4), 1);
  const Simulation sim = simulate(bcast(1), 16, 0, model);
  ASSERT_TRUE(sim.ok()) << sim.describe_problems();
  // Children at distance 8 and 4 lie on other nodes: 0->8, 0->4, 8->12.
  EXPECT_EQ(sim.messages_per_level, (std::vector<std::int64_t>{12, 3}));
  EXPECT_EQ(sim.bytes_per_level, (std::vector<std::int64_t>{12, 3}));
  // Two network steps on the critical path, then two inside the node.
  EXPECT_NEAR(sim.time, 2 * 10 + 2 * 1, 1e-12);
  EXPECT_EQ(sim.critical_messages_per_level, (std::vector<std::int64_t>{2, 2}));
}

TEST(Simulator, AMissingSendIsADeadlock) {
  // The root never sends: every other rank waits forever for its parent.
  auto broken = [](const Shape& s) { return s.rank == s.root ? Schedule{} : bcast_binomial(s, 4); };
  const Simulation sim = simulate(broken, 8, 2, UniformModel(Link::hockney(1, 0)));
  EXPECT_FALSE(sim.ok());
  EXPECT_EQ(sim.problem_count, 7);
  for (const Problem& p : sim.problems) {
    EXPECT_EQ(p.kind, Problem::Kind::kDeadlock) << p.describe();
    EXPECT_EQ(p.round, 0);
  }
  // Rank 3 (relative 1) waits for the root itself.
  const auto waits_for_root = std::find_if(sim.problems.begin(), sim.problems.end(),
                                           [](const Problem& p) { return p.rank == 3; });
  ASSERT_NE(waits_for_root, sim.problems.end());
  EXPECT_EQ(waits_for_root->peer, 2);
  EXPECT_EQ(waits_for_root->recv_bytes, 4);
}

TEST(Simulator, AnExtraSendAndAWrongSizeAreReported) {
  auto broken = [](const Shape& s) {
    Schedule schedule = bcast_binomial(s, 4);
    if (s.rank == 5) schedule.next_round().send(0, Block{kOutput, 0, 1});
    if (s.rank == 6) {  // receives 4 elements, expects 3
      Schedule shorter;
      shorter.next_round().receive(4, Block{kOutput, 0, 3});
      shorter.next_round().send(7, Block{kOutput, 0, 4});
      return shorter;
    }
    return schedule;
  };
  const Simulation sim = simulate(broken, 8, 0, UniformModel(Link::hockney(1, 0)), {2, 2});
  ASSERT_EQ(sim.problem_count, 2) << sim.describe_problems();
  EXPECT_EQ(sim.problems[0].kind, Problem::Kind::kSizeMismatch);
  EXPECT_EQ(sim.problems[0].rank, 6);
  EXPECT_EQ(sim.problems[0].send_bytes, 8);
  EXPECT_EQ(sim.problems[0].recv_bytes, 6);
  EXPECT_EQ(sim.problems[1].kind, Problem::Kind::kUnmatchedSend);
  EXPECT_EQ(sim.problems[1].rank, 5);
  EXPECT_EQ(sim.problems[1].peer, 0);
}

TEST(Simulator, APeerOutsideTheCommunicatorIsReported) {
  auto broken = [](const Shape& s) {
    Schedule schedule;
    if (s.rank == 1) schedule.next_round().send(2, Block{kOutput, 0, 1});
    return schedule;
  };
  const Simulation sim = simulate(broken, 2, 0, UniformModel(Link::hockney(1, 0)));
  ASSERT_EQ(sim.problem_count, 1);
  EXPECT_EQ(sim.problems[0].kind, Problem::Kind::kBadPeer);
}

TEST(Simulator, MessagesBetweenAPairMatchInOrder) {
  // Rank 0 sends 1 then 2 elements; rank 1 receives them in two rounds in the same order.
  auto build = [](const Shape& s) {
    Schedule schedule;
    if (s.rank == 0) schedule.next_round().send(1, {kOutput, 0, 1}).send(1, {kOutput, 1, 2});
    if (s.rank == 1) {
      schedule.next_round().receive(0, {kOutput, 0, 1});
      schedule.next_round().receive(0, {kOutput, 1, 2});
    }
    return schedule;
  };
  const Simulation sim = simulate(build, 2, 0, UniformModel(Link::hockney(1, 1)));
  EXPECT_TRUE(sim.ok()) << sim.describe_problems();
  EXPECT_NEAR(sim.completion[1], (1 + 1) + (1 + 2), 1e-12);
}

TEST(Simulator, AMillionRanks) {
  const int p = 1'000'000;
  const UniformModel model(Link::hockney(kAlpha, kBeta));
  const Simulation sim = simulate(bcast(1), p, 17, model, {8, 8});
  ASSERT_TRUE(sim.ok()) << sim.describe_problems();
  EXPECT_NEAR(sim.time, 20 * (kAlpha + 8 * kBeta), 1e-9);
  EXPECT_EQ(sim.messages, p - 1);
  EXPECT_EQ(sim.critical_messages, 19);  // no rank below 10^6 has 20 bits set

  const Simulation barrier = simulate(barrier_dissemination, p, 0, model);
  ASSERT_TRUE(barrier.ok()) << barrier.describe_problems();
  EXPECT_NEAR(barrier.time, 20 * kAlpha, 1e-9);
  EXPECT_EQ(barrier.messages, std::int64_t{p} * 20);

  auto allreduce = [](const Shape& s) { return allreduce_recursive_doubling(s, 1, false); };
  const Simulation reduced = simulate(allreduce, p, 0, model, {8, 8});
  ASSERT_TRUE(reduced.ok()) << reduced.describe_problems();
  const int pof2 = 1 << 19, rem = p - pof2;
  EXPECT_EQ(reduced.messages, std::int64_t{pof2} * 19 + 2 * rem);
  EXPECT_NEAR(reduced.time, 21 * (kAlpha + 8 * kBeta), 1e-9);
}

}  // namespace
}  // namespace scomm::coll
