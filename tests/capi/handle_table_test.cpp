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
  HandleTable<std::string> table(2);
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
  HandleTable<int> table(1);
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
  HandleTable<int> table(1);
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
  HandleTable<int> table(1);
  std::vector<int> seen;
  for (int i = 0; i <= HandleTable<int>::kGenerationMask; ++i) {
    const int h = table.insert(i);
    for (const int old : seen) EXPECT_EQ(table.find(old), nullptr);
    seen.push_back(h);
    table.erase_live(h);
  }
  EXPECT_EQ(table.live(), 0u);
}

// Requests live in two tables, told apart by the kind bit: no handle of one finds anything in the
// other, whatever its slot.
TEST(HandleTable, TablesOfBothKindsNeverFindEachOthersHandles) {
  HandleTable<int> plain(1), marked(1, true);
  std::vector<int> a, b;
  for (int i = 0; i < 5; ++i) {
    a.push_back(plain.insert(i));
    b.push_back(marked.insert(i));
  }
  for (int i = 0; i < 5; ++i) {
    EXPECT_FALSE(HandleTable<int>::has_kind_bit(a[i]));
    EXPECT_TRUE(HandleTable<int>::has_kind_bit(b[i]));
    EXPECT_GT(b[i], 0);
    EXPECT_EQ(plain.find(b[i]), nullptr);
    EXPECT_EQ(marked.find(a[i]), nullptr);
    ASSERT_NE(marked.find(b[i]), nullptr);
    EXPECT_EQ(*marked.find(b[i]), i);
  }
  EXPECT_EQ(marked.find(0), nullptr);
  EXPECT_EQ(marked.find(HandleTable<int>::kKindBit), nullptr);
}

struct ThrowsWhenBuilt {
  explicit ThrowsWhenBuilt(bool fail) {
    if (fail) throw std::runtime_error("not built");
  }
};

TEST(HandleTable, AFailedBuildLeavesNoLiveHandle) {
  HandleTable<ThrowsWhenBuilt> table(1);
  EXPECT_THROW(table.emplace(true), std::runtime_error);
  EXPECT_EQ(table.live(), 0u);
  EXPECT_EQ(table.find(1), nullptr);  // the slot's would-be handle
  const int h = table.emplace(false);
  EXPECT_NE(table.find(h), nullptr);
  EXPECT_EQ(table.live(), 1u);
}

}  // namespace
}  // namespace scomm::capi
