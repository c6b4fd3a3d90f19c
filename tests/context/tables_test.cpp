// The four context-table strategies against std::map, and the tag layout.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "scomm/base/error.hpp"
#include "scomm/context/allocation.hpp"
#include "scomm/context/context_table_factory.hpp"
#include "scomm/context/derivation.hpp"
#include "scomm/context/tag_layout.hpp"

namespace scomm::context {
namespace {

class TableTest : public ::testing::TestWithParam<Storage> {};

// Blocks of 16 ids, as the runtime's.
constexpr int kBlockBits = kDefaultDeriveBits;

TEST_P(TableTest, MatchesAMapUnderRandomInsertAndErase) {
  constexpr ContextId kCapacity = 1 << 20;
  auto table = make_context_table<int>(GetParam(), kCapacity, kBlockBits);
  std::map<ContextId, int*> model;
  std::vector<int> values(1000);
  std::mt19937 rng(5);
  for (int step = 0; step < 20000; ++step) {
    const ContextId id = rng() % 3 == 0 ? rng() % 64 : rng() % kCapacity;
    if (model.count(id)) {
      table->erase(id);
      model.erase(id);
    } else {
      int* value = &values[rng() % values.size()];
      table->insert(id, value);
      model[id] = value;
    }
    // Half the probes in the chunk just touched (the radix table keeps that leaf at hand).
    const ContextId probe = step % 2 == 0 ? rng() % kCapacity : (id & ~0xffu) | (rng() % 256);
    ASSERT_EQ(table->find(probe), model.count(probe) ? model[probe] : nullptr);
  }
  for (const auto& [id, value] : model) ASSERT_EQ(table->find(id), value);
  EXPECT_GT(table->bytes(), 0u);
}

TEST_P(TableTest, InsertingATakenIdIsAnError) {
  auto table = make_context_table<int>(GetParam(), 1024, kBlockBits);
  int a = 0, b = 0;
  table->insert(7, &a);
  try {
    table->insert(7, &b);
    ADD_FAILURE() << "second insert accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.error_class(), ErrorClass::kContext);
  }
  EXPECT_EQ(table->find(7), &a);
}

// Room made for a run of blocks changes no lookup, and inserting their first ids (what local
// creation takes from the run) allocates nothing more (but a tree node per entry).
TEST_P(TableTest, PreparedIdsStayAbsentUntilInserted) {
  auto table = make_context_table<int>(GetParam(), 1 << 20, kBlockBits);
  int value = 0;
  table->insert(3, &value);
  table->prepare(1024, 5120);  // blocks 64 .. 383
  const std::size_t prepared = table->bytes();
  for (ContextId id = 1000; id < 6200; ++id) ASSERT_EQ(table->find(id), nullptr) << id;
  for (ContextId id = 1024; id < 6144; id += 16) table->insert(id, &value);
  if (GetParam() != Storage::kTree) {
    EXPECT_EQ(table->bytes(), prepared);
  }
  for (ContextId id = 1000; id < 6200; ++id)
    ASSERT_EQ(table->find(id), id >= 1024 && id < 6144 && id % 16 == 0 ? &value : nullptr) << id;
  EXPECT_EQ(table->find(3), &value);
}

// The radix table files the first ids of 256 consecutive blocks in one leaf: a run of local
// creations, each taking the next block, stays in it (and in its cache lines), and the run's
// room costs a leaf per 256 blocks, not per 16.
TEST(TableTest, RadixFilesConsecutiveBlocksTogether) {
  auto table = make_context_table<int>(Storage::kRadix, 1 << 20, kBlockBits);
  auto first_id = [](ContextId block) { return block << kBlockBits; };
  const std::size_t empty = table->bytes();
  int value = 0;
  table->insert(first_id(256), &value);  // a chunk of each level
  const std::size_t chunk = (table->bytes() - empty) / 3;
  for (ContextId block = 257; block < 512; ++block) table->insert(first_id(block), &value);
  EXPECT_EQ(table->bytes(), empty + 3 * chunk);
  table->prepare(first_id(512), first_id(512));  // blocks 512 .. 1023: two leaves
  EXPECT_EQ(table->bytes(), empty + 5 * chunk);
  // The other ids of a block (derived ones) have leaves of their own, made as they come, under
  // chunks of their own for each place in the block.
  table->insert(first_id(300) + 8, &value);
  EXPECT_EQ(table->bytes(), empty + 8 * chunk);
  table->insert(first_id(301) + 8, &value);
  EXPECT_EQ(table->bytes(), empty + 8 * chunk);
  EXPECT_EQ(table->find(first_id(300) + 8), &value);
  EXPECT_EQ(table->find(first_id(300) + 4), nullptr);
  EXPECT_EQ(table->find(first_id(300)), &value);
}

INSTANTIATE_TEST_SUITE_P(Strategies, TableTest,
                         ::testing::Values(Storage::kGrowableArray, Storage::kFixedArray,
                                           Storage::kTree, Storage::kRadix),
                         [](const auto& param_info) {
                           return std::string(storage_name(param_info.param));
                         });

TEST(TableTest, FixedArrayRejectsIdsBeyondItsCapacity) {
  auto table = make_context_table<int>(Storage::kFixedArray, 16, kBlockBits);
  int a = 0;
  EXPECT_THROW(table->insert(16, &a), Error);
  EXPECT_EQ(table->find(1000), nullptr);
}

TEST(TagLayoutTest, OpenMpiAndMpichTagLimits) {
  const auto open_mpi = TagLayout::from_tag_ub((1u << 31) - 1);
  EXPECT_EQ(open_mpi.prefix_bits(), 16);
  const auto mpich = TagLayout::from_tag_ub((1 << 28) - 1);
  EXPECT_EQ(mpich.prefix_bits(), 13);
  for (const TagLayout& layout : {open_mpi, mpich}) {
    EXPECT_GE(layout.published_tag_ub(), (1 << 15) - 1 - TagLayout::kInternalTags);
    const int tag = layout.mpi_tag(77, 12345);
    EXPECT_EQ(layout.prefix_of(tag), 77u);
    EXPECT_EQ(layout.user_tag_of(tag), 12345);
    EXPECT_LE(layout.mpi_tag(layout.prefixes_per_base() - 1, layout.internal_tag(255)),
              (std::int64_t{1} << (layout.prefix_bits() + layout.user_bits())) - 1);
  }
  EXPECT_THROW(TagLayout::from_tag_ub((1 << 15) - 1), Error);  // no room for a prefix
  EXPECT_EQ(TagLayout::from_tag_ub((1 << 16) - 1).prefix_bits(), 1);
}

}  // namespace
}  // namespace scomm::context

namespace scomm::context {
namespace {

template <typename F>
void expect_error_class(ErrorClass expected, F&& f) {
  try {
    f();
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.error_class(), expected) << e.what();
  }
}

TEST(ContextBadInputTest, UnknownNamesAndMisusedIds) {
  expect_error_class(ErrorClass::kArg, [] { storage_from_name("hash"); });
  expect_error_class(ErrorClass::kArg, [] { algorithm_from_name("fastest"); });
  EXPECT_EQ(storage_from_name("radix"), Storage::kRadix);
  EXPECT_EQ(algorithm_from_name("highest"), Algorithm::kHighest);
  ContextPool pool(8);
  pool.reserve(3);
  expect_error_class(ErrorClass::kIntern, [&] { pool.reserve(3); });  // taken
  expect_error_class(ErrorClass::kIntern, [&] { pool.reserve(8); });  // beyond capacity
  expect_error_class(ErrorClass::kIntern, [&] { pool.release(5); });  // not held
  expect_error_class(ErrorClass::kIntern, [&] { pool.commit(5); });   // not reserved
  pool.commit(3);
  expect_error_class(ErrorClass::kIntern, [&] { pool.commit(3); });  // already committed
  EXPECT_EQ(pool.lowest_unused(3), 4u);
  pool.reserve(4);  // only reserved: not in use
  EXPECT_EQ(pool.lowest_unused(3), 4u);
  EXPECT_TRUE(pool.in_use(3));
  EXPECT_FALSE(pool.in_use(4));
  pool.release(4);
  EXPECT_EQ(pool.end_of_held(), 4u);
}

}  // namespace
}  // namespace scomm::context
