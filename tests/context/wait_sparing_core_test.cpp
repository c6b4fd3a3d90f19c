// scomm::wait_sparing_core, with which a local creation waits for a run's allocation: it spins
// first, and only after that gives the core away between polls: a yield, and a nap whenever a
// yield came straight back, each nap longer than the last up to a limit.
#include <gtest/gtest.h>

#include <chrono>

#include "scomm/base/wait_sparing_core.hpp"

namespace scomm {
namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;
using std::chrono::steady_clock;

// done() after `polls` calls, counting them.
struct DoneAfter {
  int polls;
  int* calls;
  bool operator()() const { return ++*calls >= polls; }
};

TEST(WaitSparingCoreTest, ReturnsAtTheFirstPollThatIsDone) {
  int calls = 0;
  wait_sparing_core(DoneAfter{1, &calls});
  EXPECT_EQ(calls, 1);
}

TEST(WaitSparingCoreTest, SpinsWithoutSleepingWithinItsSpin) {
  int calls = 0;
  const auto start = steady_clock::now();
  wait_sparing_core(DoneAfter{10000, &calls}, milliseconds(60000), milliseconds(1));
  EXPECT_EQ(calls, 10000);
  EXPECT_LT(steady_clock::now() - start, milliseconds(5000));  // 10,000 naps would take 10 s
}

// Of two gaps between polls in a row, one at least is a nap or a yield that lasted as long (a
// yield that comes straight back is followed by a nap): 4 gaps take 2 naps' time at least.
TEST(WaitSparingCoreTest, GivesTheCoreAwayBetweenPollsOnceItsSpinIsOver) {
  int calls = 0;
  const auto start = steady_clock::now();
  wait_sparing_core(DoneAfter{5, &calls}, microseconds(0), milliseconds(5));
  EXPECT_EQ(calls, 5);
  EXPECT_GE(steady_clock::now() - start, milliseconds(10));
}

TEST(WaitSparingCoreTest, NapsDoubleUpToFourTimesTheFirst) {
  GrowingNap naps(microseconds(20));
  for (const int expected : {20, 40, 80, 80, 80}) EXPECT_EQ(naps.take(), microseconds(expected));
}

}  // namespace
}  // namespace scomm
