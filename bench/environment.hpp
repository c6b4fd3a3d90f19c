// Where and how a benchmark's numbers were taken, recorded in its JSON by both tools (a result
// file names its own machine: reference runs may come from another machine than the report).
#pragma once

#include <string>

namespace scomm::bench {

struct Environment {
  std::string command, compiler, cpu, date;
  std::string revision;  // the scomm commit built, "+changes" when the tree differed from it
  unsigned cores = 0;
  std::string system;  // kernel name and release
  unsigned memory_gib = 0;
};
Environment current_environment(const std::string& command);

// The machine's and the build's fields as JSON members ("compiler": ..., "cpu": ...,
// "memory_gib": N, "revision": ...), command left out.
std::string json_members(const Environment& where);

// `text` as a JSON string literal, quotes included.
std::string json_string(const std::string& text);

}  // namespace scomm::bench
