// Parsing of the user's levels (SCOMM_TOPO_COLORS, SCOMM_TOPO_BLOCKS, SCOMM_TOPO_FILE): values
// as written, and Error(kArg) naming the variable or file line for anything else.
#include "scomm/topo/user_levels.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <sstream>

#include "scomm/base/error.hpp"

namespace scomm::topo {
namespace {

std::string error_of(const std::function<void()>& parse) {
  try {
    parse();
  } catch (const Error& e) {
    EXPECT_EQ(e.error_class(), ErrorClass::kArg);
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

TEST(UserLevels, NamedValuesInOrder) {
  const NamedValues parsed = parse_named_values("site=3,lan=-7,rack_2=0", "V");
  EXPECT_EQ(parsed.names, (std::vector<std::string>{"site", "lan", "rack_2"}));
  EXPECT_EQ(parsed.values, (std::vector<std::int64_t>{3, -7, 0}));
}

TEST(UserLevels, BadNamedValuesNameTheVariable) {
  for (const char* text : {"", "site", "site=", "=3", "site=3,", "site=3x", "si te=3",
                           "site=1,site=2", "site=99999999999999999999"}) {
    const std::string what = error_of([&] { parse_named_values(text, "SCOMM_TOPO_COLORS"); });
    EXPECT_EQ(what.rfind("SCOMM_TOPO_COLORS: ", 0), 0u) << text << ": " << what;
  }
}

TEST(UserLevels, BlocksAreConsecutiveRanks) {
  const UserColors colors = block_colors({{"site", "machine"}, {4, 3}}, 9);
  EXPECT_EQ(colors.names, (std::vector<std::string>{"site", "machine"}));
  EXPECT_EQ(colors.colors[0], (std::vector<std::int64_t>{0, 0, 0, 0, 1, 1, 1, 1, 2}));
  EXPECT_EQ(colors.colors[1], (std::vector<std::int64_t>{0, 0, 0, 1, 1, 1, 2, 2, 2}));
  EXPECT_NE(error_of([] { block_colors({{"site"}, {0}}, 4); }).find("positive"), std::string::npos);
}

TEST(UserLevels, FileWithHeaderCommentsAndBlankLines) {
  std::istringstream in("# levels: site lan\n# rank 0\n0 5\n\n0   6\n1\t5\n");
  const UserColors colors = parse_topology_file(in, 3, "f");
  EXPECT_EQ(colors.names, (std::vector<std::string>{"site", "lan"}));
  EXPECT_EQ(colors.colors[0], (std::vector<std::int64_t>{0, 0, 1}));
  EXPECT_EQ(colors.colors[1], (std::vector<std::int64_t>{5, 6, 5}));
}

TEST(UserLevels, FileWithoutHeader) {
  std::istringstream in("1 2\n3 4\n");
  const UserColors colors = parse_topology_file(in, 2, "f");
  EXPECT_EQ(colors.names, (std::vector<std::string>{"user0", "user1"}));
  EXPECT_EQ(colors.colors[1], (std::vector<std::int64_t>{2, 4}));
}

TEST(UserLevels, BadFilesNameTheLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"0\n1\n2\n", "topo.txt: 3 rank lines for 2 ranks"},
      {"0\n", "topo.txt: 1 rank lines for 2 ranks"},
      {"0 1\n2\n", "topo.txt:2: 1 colors for 2 levels"},
      {"# levels: a\n0\nx\n", "topo.txt:3: 'x' is not an integer"},
      {"# levels: a a\n0 0\n1 1\n", "topo.txt:1: level 'a' named twice"},
  };
  for (const auto& [text, message] : cases) {
    std::istringstream in(text);
    EXPECT_EQ(error_of([&] { parse_topology_file(in, 2, "topo.txt"); }), message) << text;
  }
}

}  // namespace
}  // namespace scomm::topo
