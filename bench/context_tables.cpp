#include "context_tables.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include "scomm/context/context_table_factory.hpp"
#include "scomm/context/derivation.hpp"

namespace scomm::bench {
namespace {

using context::ContextId;
using context::Storage;
using Clock = std::chrono::steady_clock;

constexpr ContextId kCapacity = 1 << 20;

struct TableRun {
  double find_ns, update_ns;
  std::size_t bytes;
};

// Fills a table with `live` random ids of [0, kCapacity), then times lookups of live ids and
// erase + insert pairs.
TableRun time_table(Storage storage, std::size_t live, unsigned seed) {
  std::vector<ContextId> ids(kCapacity);
  std::iota(ids.begin(), ids.end(), 0);
  std::mt19937 rng(seed);
  std::shuffle(ids.begin(), ids.end(), rng);
  ids.resize(live);
  auto table = context::make_context_table<int>(storage, kCapacity, context::kDefaultDeriveBits);
  int value = 0;
  for (ContextId id : ids) table->insert(id, &value);
  std::vector<ContextId> probes(1 << 16);
  for (auto& p : probes) p = ids[rng() % ids.size()];
  volatile std::uintptr_t sink = 0;
  const auto start = Clock::now();
  std::size_t lookups = 0;
  do {
    std::uintptr_t acc = 0;
    for (ContextId id : probes) acc += reinterpret_cast<std::uintptr_t>(table->find(id));
    sink = acc;
    lookups += probes.size();
  } while (Clock::now() - start < std::chrono::milliseconds(20));
  const double find_ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count() /
                         static_cast<double>(lookups);
  const auto update_start = Clock::now();
  for (ContextId id : probes) {
    table->erase(id);
    table->insert(id, &value);
  }
  const double update_ns =
      std::chrono::duration<double, std::nano>(Clock::now() - update_start).count() /
      static_cast<double>(probes.size());
  (void)sink;
  return {find_ns, update_ns, table->bytes()};
}

}  // namespace

std::string run_context_tables(std::ostream& out, int reps, bool quick,
                               const std::string& command) {
  const std::vector<std::size_t> lives =
      quick ? std::vector<std::size_t>{100, 10000} : std::vector<std::size_t>{100, 10000, 1000000};
  char line[256];
  out << "== context-tables (medians of " << reps << ", ids random in [0, 2^20))\n";
  std::snprintf(line, sizeof line, "%-8s %10s %10s %12s %14s\n", "storage", "live", "find ns",
                "update ns", "bytes");
  out << line;
  std::string json = "{\"experiment\": \"context-tables\", \"command\": \"" + command +
                     "\", \"reps\": " + std::to_string(reps) + ", \"rows\": [";
  bool first = true;
  for (Storage storage :
       {Storage::kGrowableArray, Storage::kFixedArray, Storage::kTree, Storage::kRadix})
    for (std::size_t live : lives) {
      std::vector<double> find, update;
      std::size_t bytes = 0;
      for (int rep = 0; rep < reps; ++rep) {
        const TableRun run = time_table(storage, live, static_cast<unsigned>(rep + 1));
        find.push_back(run.find_ns);
        update.push_back(run.update_ns);
        bytes = run.bytes;
      }
      std::sort(find.begin(), find.end());
      std::sort(update.begin(), update.end());
      const double f = find[find.size() / 2], u = update[update.size() / 2];
      std::snprintf(line, sizeof line, "%-8s %10zu %10.1f %12.1f %14zu\n",
                    std::string(context::storage_name(storage)).c_str(), live, f, u, bytes);
      out << line;
      std::snprintf(line, sizeof line,
                    "%s{\"storage\": \"%s\", \"live\": %zu, \"find_ns\": %.2f, \"find_min\": %.2f, "
                    "\"find_max\": %.2f, \"update_ns\": %.2f, \"bytes\": %zu}",
                    first ? "" : ", ", std::string(context::storage_name(storage)).c_str(), live, f,
                    find.front(), find.back(), u, bytes);
      json += line;
      first = false;
    }
  return json + "]}";
}

}  // namespace scomm::bench
