// scomm-memory: builds, in one process, the state one rank holds for each memory workload at its
// virtual world size, and reports bytes per rank by part and per communicator, with goal checks.
//
//   scomm-memory [--quick] [--filter TEXT] [--json FILE]
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>

#include "memory_report.hpp"

namespace scomm::bench {
namespace {

struct Options {
  bool quick = false;
  std::string filter, json, command;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 0; i < argc; ++i) o.command += (i ? " " : "") + std::string(argv[i]);
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--quick")
      o.quick = true;
    else if (arg == "--filter" && has_value)
      o.filter = argv[++i];
    else if (arg == "--json" && has_value)
      o.json = argv[++i];
    else
      throw std::runtime_error("unknown or incomplete option " + arg);
  }
  return o;
}

// The rank's state is built and analysed, then freed before the next rank.
RankAnalysis analyse_rank(const MemoryWorkload& w, Rank self) {
  const std::size_t before = heap_in_use();
  RankState state(w.world, self);
  w.build(state);
  const std::size_t built = heap_in_use() - before;
  return analyze(state, built);
}

int run(int argc, char** argv) {
  const Options options = parse(argc, argv);
  std::vector<WorkloadMemory> results;
  for (const MemoryWorkload& w : memory_workloads(options.quick)) {
    if (w.name.find(options.filter) == std::string::npos) continue;
    std::fprintf(stderr, "[memory] %s\n", w.name.c_str());
    WorkloadMemory result{w.name, w.source, w.world, w.budget_bytes, {}};
    for (Rank self : w.ranks) result.ranks.push_back(analyse_rank(w, self));
    print_memory_table(std::cout, result);
    results.push_back(std::move(result));
  }
  const std::vector<Goal> goals = check_goals(results);
  std::cout << "\n";
  print_goals(std::cout, goals);
  if (!options.json.empty()) {
    std::ofstream file(options.json);
    write_memory_json(file, current_environment(options.command), results, goals);
    if (!file) throw std::runtime_error("cannot write " + options.json);
  }
  return 0;
}

}  // namespace
}  // namespace scomm::bench

// glibc counts chunks parked in its per-thread cache as in use, so a freed temporary would
// distort the heap measurements: the tool runs itself again with that cache off.
void without_malloc_cache(char** argv) {
  constexpr const char* kTunable = "glibc.malloc.tcache_count=0";
  const char* set = std::getenv("GLIBC_TUNABLES");
  if (set != nullptr && std::strstr(set, kTunable) != nullptr) return;
  setenv("GLIBC_TUNABLES", kTunable, 1);
  execv("/proc/self/exe", argv);  // returns only on failure: measure with the cache then
}

int main(int argc, char** argv) {
  without_malloc_cache(argv);
  try {
    return scomm::bench::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "scomm-memory: %s\n", e.what());
    return 1;
  }
}
