// BasePlacement: every context id gets its own base communicator and tag prefix, spread.
#include "scomm/context/base_placement.hpp"

#include <gtest/gtest.h>

#include <set>
#include <vector>

namespace scomm::context {
namespace {

// Every id of the space has its own (base, prefix), inside the space, found back by id_at.
TEST(BasePlacementTest, IsABijectionOnTheIdSpace) {
  for (const int base_bits : {0, 1, 4, 7}) {
    for (const int derive_bits : {0, 1, 4, 6}) {
      const int prefix_bits = 9;
      const BasePlacement placement(base_bits, derive_bits);
      const ContextId capacity = ContextId{1} << (base_bits + prefix_bits);
      std::vector<bool> seen(capacity, false);
      for (ContextId id = 0; id < capacity; ++id) {
        const auto [base, prefix] = placement.place(id);
        ASSERT_LT(base, placement.base_count());
        ASSERT_LT(prefix, ContextId{1} << prefix_bits);
        const ContextId at = static_cast<ContextId>(base) << prefix_bits | prefix;
        ASSERT_FALSE(seen[at]) << "id " << id;
        seen[at] = true;
        ASSERT_EQ(placement.id_at(base, prefix), id);
      }
    }
  }
}

// The ids of one block, and the first ids of consecutive blocks (the communicators collective
// creation makes one after another), each go to as many bases as there are.
TEST(BasePlacementTest, SpreadsBlocksAndTheirIdsOverTheBases) {
  const int derive_bits = 4, base_bits = 4;
  const BasePlacement placement(base_bits, derive_bits);
  for (const ContextId block : {ContextId{0}, ContextId{5}, ContextId{1000}}) {
    std::set<int> bases;
    for (ContextId i = 0; i < 16; ++i) bases.insert(placement.base_of(block * 16 + i));
    EXPECT_EQ(bases.size(), 16u) << "block " << block;
  }
  std::set<int> bases;
  for (ContextId block = 0; block < 16; ++block) bases.insert(placement.base_of(block * 16));
  EXPECT_EQ(bases.size(), 16u);
}

}  // namespace
}  // namespace scomm::context
