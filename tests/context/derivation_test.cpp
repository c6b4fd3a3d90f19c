// Local derivation: the slots a communicator hands to its children, and the separation they give.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "scomm/context/derivation.hpp"

namespace scomm::context {
namespace {

// Every id a derivation owns: its own and those of all its slots.
std::vector<ContextId> ids_of(const Derivation& d) {
  std::vector<ContextId> ids;
  for (ContextId k = 0; k < d.span(); ++k) ids.push_back(d.first + k);
  return ids;
}

TEST(DerivationTest, EachSlotServesOnceAndHalvesTheRange) {
  Derivation parent{64, 4, 0};
  const ContextId expected_first[] = {72, 68, 66, 65};
  const int expected_bits[] = {3, 2, 1, 0};
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(parent.slots_left(), 4 - k);
    const auto child = derive_child(parent);
    ASSERT_TRUE(child);
    EXPECT_EQ(child.first, expected_first[k]) << "creation " << k;
    EXPECT_EQ(child.bits, expected_bits[k]) << "creation " << k;
  }
  // Never round again: a member still using the first child's id cannot be told apart.
  EXPECT_EQ(parent.slots_left(), 0);
  EXPECT_FALSE(derive_child(parent));
  EXPECT_FALSE(derive_child(parent));
}

TEST(DerivationTest, LiveSlotsOfOneParentAreDisjointAndExcludeIt) {
  Derivation parent{128, 5, 0};
  std::set<ContextId> taken{parent.first};
  for (int k = 0; k < parent.bits; ++k)
    for (ContextId id : ids_of(derive_child(parent)))
      EXPECT_TRUE(taken.insert(id).second) << "id " << id << " handed out twice";
  EXPECT_EQ(taken.size(), parent.span());
}

TEST(DerivationTest, ChainsOfLocalCreationsStayDistinctUntilTheBitsRunOut) {
  Derivation d{0, 6, 0};
  std::set<ContextId> chain{d.first};
  while (const auto child = derive_child(d)) {
    EXPECT_TRUE(chain.insert(child.first).second);
    d = child;
  }
  EXPECT_EQ(d.bits, 0);
  EXPECT_EQ(chain.size(), 7U);  // the root and one child per bit
}

TEST(DerivationTest, NoBitsMeansNoLocalChild) {
  Derivation leaf{5, 0, 0};
  EXPECT_FALSE(derive_child(leaf));
  EXPECT_FALSE(derive_child(leaf));
}

}  // namespace
}  // namespace scomm::context
