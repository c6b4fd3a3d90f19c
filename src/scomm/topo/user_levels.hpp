// The user's levels above the node, as written in the environment (docs/DESIGN.md, "Topology"):
// per-rank colors ("site=3,lan=7"), clusters of consecutive ranks ("site=32,machine=16"), or a
// topology file with one line of colors per world rank. Parsing only (pure C++): discovery.cpp
// reads the variables and gathers what each rank wrote.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace scomm::topo {

// Named integers in the order written, e.g. names {site, lan} and values {3, 7}.
struct NamedValues {
  std::vector<std::string> names;
  std::vector<std::int64_t> values;
};

// Levels with a color per world rank: colors[level][rank].
struct UserColors {
  std::vector<std::string> names;
  std::vector<std::vector<std::int64_t>> colors;
};

// "name=integer,name=integer,...": distinct names of letters, digits, '_' and '-'. Error(kArg)
// naming `variable` otherwise.
NamedValues parse_named_values(std::string_view text, std::string_view variable);

// Clusters of blocks.values[l] consecutive ranks at level l (each value positive; where a block
// of an outer level ends inside one of an inner level, the inner one is cut there).
UserColors block_colors(const NamedValues& blocks, int world_size);

// A topology file: an optional first line "# levels: NAME NAME ...", then one line per world rank
// holding its integer colors, outermost level first. Other lines starting with '#' and blank
// lines are skipped. Without the header the levels are named "user0", "user1", ... Error(kArg)
// naming `path` and the line for a bad line, and for a number of rank lines other than
// world_size.
UserColors parse_topology_file(std::istream& in, int world_size, std::string_view path);

}  // namespace scomm::topo
