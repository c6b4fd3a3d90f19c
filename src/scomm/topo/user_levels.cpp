#include "scomm/topo/user_levels.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "scomm/base/error.hpp"

namespace scomm::topo {
namespace {

[[noreturn]] void bad(std::string_view where, const std::string& what) {
  throw Error(ErrorClass::kArg, std::string(where) + ": " + what);
}

bool is_name(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '_' || c == '-';
  });
}

bool parse_integer(std::string_view text, std::int64_t& value) {
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  return error == std::errc() && stop == end;
}

void add_name(std::vector<std::string>& names, std::string_view name, std::string_view where) {
  if (!is_name(name))
    bad(where, "'" + std::string(name) + "' is not a level name (letters, digits, '_', '-')");
  if (std::find(names.begin(), names.end(), name) != names.end())
    bad(where, "level '" + std::string(name) + "' named twice");
  names.emplace_back(name);
}

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (true) {
    i = line.find_first_not_of(" \t\r", i);
    if (i == std::string_view::npos) return out;
    const std::size_t end = std::min(line.find_first_of(" \t\r", i), line.size());
    out.push_back(line.substr(i, end - i));
    i = end;
  }
}

// The names of a "# levels: site lan" header, or false when `line` is no such header.
bool parse_header(std::string_view line, std::vector<std::string>& names, std::string_view where) {
  constexpr std::string_view kHeader = "levels:";
  std::vector<std::string_view> parts = words(line.substr(1));
  if (parts.empty() || parts.front() != kHeader) return false;
  for (std::size_t i = 1; i < parts.size(); ++i) add_name(names, parts[i], where);
  return true;
}

std::vector<std::int64_t> parse_rank_line(std::string_view line, std::string_view where) {
  std::vector<std::int64_t> colors;
  for (std::string_view word : words(line)) {
    std::int64_t value = 0;
    if (!parse_integer(word, value)) bad(where, "'" + std::string(word) + "' is not an integer");
    colors.push_back(value);
  }
  return colors;
}

}  // namespace

NamedValues parse_named_values(std::string_view text, std::string_view variable) {
  NamedValues out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = text.substr(start, comma - start);
    const std::size_t equals = item.find('=');
    if (equals == std::string_view::npos)
      bad(variable, "'" + std::string(item) + "' is not name=integer");
    std::int64_t value = 0;
    if (!parse_integer(item.substr(equals + 1), value))
      bad(variable, "'" + std::string(item.substr(equals + 1)) + "' is not an integer");
    add_name(out.names, item.substr(0, equals), variable);
    out.values.push_back(value);
    start = comma + 1;
  }
  return out;
}

UserColors block_colors(const NamedValues& blocks, int world_size) {
  UserColors out{blocks.names, {}};
  for (std::int64_t block : blocks.values) {
    if (block <= 0) bad("SCOMM_TOPO_BLOCKS", "block sizes must be positive");
    auto& level = out.colors.emplace_back(static_cast<std::size_t>(world_size));
    for (int r = 0; r < world_size; ++r) level[static_cast<std::size_t>(r)] = r / block;
  }
  return out;
}

UserColors parse_topology_file(std::istream& in, int world_size, std::string_view path) {
  UserColors out;
  std::vector<std::vector<std::int64_t>> rows;
  bool named = false;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string where = std::string(path) + ":" + std::to_string(number);
    if (line.starts_with('#')) {
      if (rows.empty() && !named) named = parse_header(line, out.names, where);
      continue;
    }
    if (words(line).empty()) continue;
    rows.push_back(parse_rank_line(line, where));
    if (!named) {
      for (std::size_t l = 0; l < rows.front().size(); ++l)
        out.names.push_back("user" + std::to_string(l));
      named = true;
    }
    if (rows.back().size() != out.names.size())
      bad(where, std::to_string(rows.back().size()) + " colors for " +
                     std::to_string(out.names.size()) + " levels");
  }
  if (rows.size() != static_cast<std::size_t>(world_size))
    bad(path,
        std::to_string(rows.size()) + " rank lines for " + std::to_string(world_size) + " ranks");
  out.colors.assign(out.names.size(), std::vector<std::int64_t>(rows.size()));
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t l = 0; l < out.names.size(); ++l) out.colors[l][r] = rows[r][l];
  return out;
}

}  // namespace scomm::topo
