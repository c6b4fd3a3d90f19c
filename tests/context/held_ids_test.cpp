// HeldIds, which keeps a block taken in the pool while any of its ids is held here, and the
// pool's releases: one id at a time, and the batch of a settlement of freed blocks.
#include <gtest/gtest.h>

#include <vector>

#include "scomm/base/error.hpp"
#include "scomm/context/context_pool.hpp"
#include "scomm/context/held_ids.hpp"

namespace scomm::context {
namespace {

// Holds every id of one block (and of its neighbours), then releases the block's ids one by one:
// release (and holds_in_block) says the block is free at the last one only, whatever the block
// size and position.
TEST(HeldIdsTest, ReleaseSaysTheBlockIsFreeOnlyAtItsLastId) {
  for (int bits = 0; bits <= 6; ++bits) {
    const ContextId block_size = ContextId{1} << bits;
    for (const ContextId block :
         {ContextId{0}, ContextId{1}, ContextId{5}, ContextId{64} >> bits}) {
      HeldIds held(1 << 12, bits);
      const ContextId first = held.first_of_block(block);
      for (ContextId id = first; id < first + block_size; ++id)
        ASSERT_TRUE(held.hold_unless_any_held(id, 1));
      const ContextId neighbour = first + block_size;  // the next block's first id, held too
      ASSERT_TRUE(held.hold_unless_any_held(neighbour, 1));
      EXPECT_FALSE(held.hold_unless_any_held(first, block_size));  // all of them held
      EXPECT_EQ(held.held(), block_size + 1);
      EXPECT_TRUE(held.holds_in_block(block));
      for (ContextId id = first + block_size; id-- > first;) {
        EXPECT_EQ(held.release(id), id == first) << "bits " << bits << ", id " << id;
        EXPECT_EQ(held.holds_in_block(block), id != first) << "bits " << bits << ", id " << id;
      }
      EXPECT_TRUE(held.holds_in_block(block + 1));  // the neighbour's
      EXPECT_TRUE(held.any_held(neighbour, 1));
      EXPECT_FALSE(held.any_held(first, block_size));
      EXPECT_EQ(held.held(), 1u);
    }
  }
}

// A communicator's ids are held through its own (first) id: the range check sees any id of the
// range held by another communicator, and a refused hold holds nothing.
TEST(HeldIdsTest, AHoldIsRefusedWhileAnyIdOfItsRangeIsHeld) {
  HeldIds held(1 << 12, 4);
  ASSERT_TRUE(held.hold_unless_any_held(100 + 6, 1));  // a derived child's id inside the range
  EXPECT_FALSE(held.hold_unless_any_held(100, 8));
  EXPECT_EQ(held.held(), 1u);
  EXPECT_TRUE(held.hold_unless_any_held(100, 4));  // [100, 104) holds nothing yet
  EXPECT_TRUE(held.any_held(100, 1));
  EXPECT_FALSE(held.any_held(101, 3));               // only the first id is held
  EXPECT_TRUE(held.hold_unless_any_held(3008, 16));  // beyond the words used so far: grows
  EXPECT_EQ(held.held(), 3u);
}

TEST(ContextPoolTest, ReleaseFreesHeldAndReservedIdsAndRefusesFreeOnes) {
  ContextPool pool(256);
  pool.take(70);
  pool.reserve(71, 5);
  EXPECT_EQ(pool.held(), 2u);
  pool.release(70);
  pool.release(71);  // a reservation: its priority goes with it
  EXPECT_TRUE(pool.is_free(70));
  EXPECT_TRUE(pool.is_free(71));
  EXPECT_FALSE(pool.any_reserved_up_to(64, 64, ~std::uint64_t{0}));  // by any allocation
  EXPECT_EQ(pool.held(), 0u);
  EXPECT_THROW(pool.release(70), Error);   // no longer held
  EXPECT_THROW(pool.release(256), Error);  // beyond the capacity
}

// The batch release of a settlement: the ids given (across words, in any order) go free, every
// other id stays held, and the count follows.
TEST(ContextPoolTest, ReleaseUsedFreesExactlyTheIdsGiven) {
  ContextPool pool(256);
  for (const ContextId id : {0u, 1u, 63u, 64u, 130u, 255u}) pool.take(id);
  const std::vector<ContextId> used = {255, 1, 64, 0};
  pool.release_used(used);
  for (const ContextId id : used) EXPECT_TRUE(pool.is_free(id)) << id;
  EXPECT_FALSE(pool.is_free(63));
  EXPECT_FALSE(pool.is_free(130));
  EXPECT_EQ(pool.held(), 2u);
  pool.release_used(std::vector<ContextId>{});
  EXPECT_EQ(pool.held(), 2u);
}

}  // namespace
}  // namespace scomm::context
