// The C API's handle table: live handles find their object, anything else finds nothing.
#include "scomm/capi/handle_table.hpp"

#include <gtest/gtest.h>

#include <climits>
#include <stdexcept>
#include <string>
#include <vector>

namespace scomm::capi {
namespace {

TEST(HandleTable, FindsLiveHandlesOnly) {
  HandleTable<std::string> table(2, 1);
  const int a = table.insert("a"), b = table.insert("b");
  EXPECT_NE(a, b);
  ASSERT_NE(table.find(a), nullptr);
  EXPECT_EQ(*table.find(a), "a");
  EXPECT_EQ(*table.find(b), "b");
  EXPECT_EQ(table.live(), 2u);
  for (const int bad : {0, 1, -1, -a, INT_MIN, INT_MAX, a + 1000, b + 1})
    EXPECT_EQ(table.find(bad), nullptr) << bad;
}

TEST(HandleTable, AFreedHandleStaysDeadWhenItsSlotIsReused) {
  HandleTable<int> table(1, 1);
  const int first = table.insert(7);
  EXPECT_TRUE(table.erase(first));
  EXPECT_EQ(table.find(first), nullptr);
  EXPECT_FALSE(table.erase(first));
  const int second = table.insert(8);  // the same slot, a new generation
  EXPECT_NE(second, first);
  EXPECT_EQ(table.find(first), nullptr);
  ASSERT_NE(table.find(second), nullptr);
  EXPECT_EQ(*table.find(second), 8);
  EXPECT_EQ(table.live(), 1u);
}

// Freed slots are taken again, the last freed first, and the table does not grow while any is
// free: the free list runs through the slots.
TEST(HandleTable, FreedSlotsAreTakenAgainLastFreedFirst) {
  HandleTable<int> table(1, 1);
  std::vector<int> handles;
  for (int i = 0; i < 100; ++i) handles.push_back(table.insert(i));
  for (int i = 1; i < 100; i += 2) table.erase_live(handles[static_cast<std::size_t>(i)]);
  EXPECT_EQ(table.live(), 50u);
  constexpr int kIndex = HandleTable<int>::kIndexMask;
  for (int i = 99; i >= 1; i -= 2) {
    const int again = table.insert(1000 + i);
    EXPECT_EQ(again & kIndex, handles[static_cast<std::size_t>(i)] & kIndex) << i;
    EXPECT_EQ(table.find(handles[static_cast<std::size_t>(i)]), nullptr);
    handles[static_cast<std::size_t>(i)] = again;
  }
  EXPECT_EQ(table.live(), 100u);
  const int fresh = table.insert(-1);  // no slot free: the table grows by one
  EXPECT_EQ(fresh & kIndex, 101);
  for (int i = 0; i < 100; ++i) {
    ASSERT_NE(table.find(handles[static_cast<std::size_t>(i)]), nullptr);
    EXPECT_EQ(*table.find(handles[static_cast<std::size_t>(i)]), i % 2 ? 1000 + i : i);
  }
  for (const int h : handles) EXPECT_TRUE(table.erase(h));
  EXPECT_TRUE(table.erase(fresh));
  EXPECT_EQ(table.live(), 0u);
}

// A slot's generation has kGenerationMask + 1 values: a stale handle is caught until its slot has
// been reused that many times.
TEST(HandleTable, AStaleHandleIsCaughtForAWholeGenerationCycle) {
  HandleTable<int> table(1, 1);
  std::vector<int> seen;
  for (int i = 0; i <= HandleTable<int>::kGenerationMask; ++i) {
    const int h = table.insert(i);
    for (const int old : seen) EXPECT_EQ(table.find(old), nullptr);
    seen.push_back(h);
    table.erase_live(h);
  }
  EXPECT_EQ(table.live(), 0u);
}

// Tables of different kinds never find each other's handles, whatever their slots (a group's
// handle given for a communicator is no communicator); the kinds from 4 on (the plain requests')
// are told from the others by one bit.
TEST(HandleTable, TablesOfDifferentKindsNeverFindEachOthersHandles) {
  std::vector<HandleTable<int>> tables;
  for (int kind = 0; kind < 8; ++kind) tables.emplace_back(1, kind);
  std::vector<std::vector<int>> handles(tables.size());
  for (int i = 0; i < 5; ++i)
    for (std::size_t k = 0; k < tables.size(); ++k) handles[k].push_back(tables[k].insert(i));
  for (std::size_t k = 0; k < tables.size(); ++k) {
    for (int i = 0; i < 5; ++i) {
      const int h = handles[k][static_cast<std::size_t>(i)];
      EXPECT_GT(h, 0);
      EXPECT_EQ(HandleTable<int>::has_upper_kind(h), k >= 4) << k;
      ASSERT_NE(tables[k].find(h), nullptr);
      EXPECT_EQ(*tables[k].find(h), i);
      for (std::size_t other = 0; other < tables.size(); ++other) {
        if (other != k) {
          EXPECT_EQ(tables[other].find(h), nullptr) << k << " in " << other;
        }
      }
    }
    EXPECT_EQ(tables[k].find(0), nullptr);
  }
}

struct ThrowsWhenBuilt {
  explicit ThrowsWhenBuilt(bool fail) {
    if (fail) throw std::runtime_error("not built");
  }
};

TEST(HandleTable, AFailedBuildLeavesNoLiveHandle) {
  HandleTable<ThrowsWhenBuilt> table(1, 1);
  EXPECT_THROW(table.emplace(true), std::runtime_error);
  EXPECT_EQ(table.live(), 0u);
  EXPECT_EQ(table.find(HandleTable<ThrowsWhenBuilt>::predefined(1, 1)), nullptr);  // would-be
  const int h = table.emplace(false);
  EXPECT_NE(table.find(h), nullptr);
  EXPECT_EQ(table.live(), 1u);
}

}  // namespace
}  // namespace scomm::capi
