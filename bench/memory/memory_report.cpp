#include "memory_report.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace scomm::bench {
namespace {

constexpr std::size_t kRegularMapGoal = 64;

std::string format(const char* pattern, auto... values) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, pattern, values...);
  return buffer;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ",") + name;
  return out;
}

// What grows with the communicators and groups, per communicator or group.
double per_object(const RankAnalysis& r) {
  const int objects = r.communicators + r.groups;
  return objects ? static_cast<double>(r.parts.per_communicator_parts()) / objects : 0.0;
}

void print_parts(std::ostream& out, const RankAnalysis& r) {
  const Parts& p = r.parts;
  const double per_comm = per_object(r);
  out << format("  rank %d: %d communicators, %d groups: total %zu B (heap measured %zu B)\n",
                r.self, r.communicators, r.groups, p.total(), r.heap_measured)
      << format(
             "    maps %zu | context table %zu (+%zu for the world's first run) | held ids %zu |"
             " block pool %zu | channels %zu | handles %zu | grids %zu | process %zu\n",
             p.maps, p.context_table, p.world_run_table, p.held_ids, p.block_pool, p.channels,
             p.handles, p.grids, p.process)
      << format(
             "    per communicator or group %.1f B (+%zu B of queues once used); published "
             "structures "
             "for these maps: plain array %.0f B, MPICH %.0f B, Open MPI %.0f B dense / %.0f B "
             "sparse\n",
             per_comm, r.queues_when_used, r.published.plain_array, r.published.mpich,
             r.published.open_mpi_dense, r.published.open_mpi_sparse);
}

void print_kinds(std::ostream& out, const RankAnalysis& r) {
  for (const KindSummary& k : r.kinds)
    out << format("    %5d x %-34s %-22s members %d..%d  map bytes max %zu total %zu%s\n", k.count,
                  k.kind.c_str(), joined(k.representations).c_str(), k.members_min, k.members_max,
                  k.map_bytes_max, k.map_bytes_total, k.shared_maps ? " (shared)" : "");
}

void json_rank(std::ostream& out, const RankAnalysis& r) {
  const Parts& p = r.parts;
  out << "{\"rank\": " << r.self << ", \"communicators\": " << r.communicators
      << ", \"groups\": " << r.groups << ", \"total_bytes\": " << p.total()
      << ", \"heap_measured_bytes\": " << r.heap_measured << ", \"parts\": {\"maps\": " << p.maps
      << ", \"context_table\": " << p.context_table
      << ", \"world_run_table\": " << p.world_run_table << ", \"held_ids\": " << p.held_ids
      << ", \"block_pool\": " << p.block_pool << ", \"channels\": " << p.channels
      << ", \"handles\": " << p.handles << ", \"grids\": " << p.grids
      << ", \"process\": " << p.process << "}, \"per_communicator_bytes\": " << per_object(r)
      << ", \"queues_when_used_bytes\": " << r.queues_when_used
      << ", \"max_regular_map_bytes\": " << r.max_regular_map_bytes << ", \"context_tables\": {";
  for (std::size_t i = 0; i < r.tables.size(); ++i)
    out << (i ? ", " : "") << json_string(r.tables[i].storage) << ": " << r.tables[i].bytes;
  out << "}, \"published\": {\"mpich\": " << r.published.mpich
      << ", \"open_mpi_dense\": " << r.published.open_mpi_dense
      << ", \"open_mpi_sparse\": " << r.published.open_mpi_sparse
      << ", \"plain_array\": " << r.published.plain_array << "}, \"kinds\": [";
  for (std::size_t i = 0; i < r.kinds.size(); ++i) {
    const KindSummary& k = r.kinds[i];
    out << (i ? ", " : "") << "{\"kind\": " << json_string(k.kind)
        << ", \"group_only\": " << (k.is_group ? "true" : "false") << ", \"count\": " << k.count
        << ", \"representations\": " << json_string(joined(k.representations))
        << ", \"members_min\": " << k.members_min << ", \"members_max\": " << k.members_max
        << ", \"map_bytes_max\": " << k.map_bytes_max
        << ", \"map_bytes_total\": " << k.map_bytes_total << ", \"shared_maps\": " << k.shared_maps
        << ", \"regular\": " << (k.all_regular ? "true" : "false") << "}";
  }
  out << "]}";
}

}  // namespace

std::vector<Goal> check_goals(const std::vector<WorkloadMemory>& results) {
  std::vector<Goal> goals;
  std::size_t largest = 0;
  std::string where = "none";
  for (const WorkloadMemory& w : results)
    for (const RankAnalysis& r : w.ranks)
      if (r.max_regular_map_bytes >= largest) {
        largest = r.max_regular_map_bytes;
        where = w.name + format(" (P = %d)", w.world);
      }
  goals.push_back({format("<= %zu bytes of map per regular communicator", kRegularMapGoal),
                   largest <= kRegularMapGoal,
                   format("largest regular map %zu B: ", largest) + where});
  for (const WorkloadMemory& w : results) {
    if (w.budget_bytes == 0) continue;
    std::size_t worst = 0, worst_used = 0;
    for (const RankAnalysis& r : w.ranks) {
      worst = std::max(worst, r.parts.total());
      worst_used =
          std::max(worst_used, r.parts.total() +
                                   static_cast<std::size_t>(r.communicators) * r.queues_when_used);
    }
    goals.push_back(
        {format("%s at P = %d under %zu B per rank", w.name.c_str(), w.world, w.budget_bytes),
         worst_used < w.budget_bytes,
         format("worst rank %zu B; %zu B with every communicator's queues made", worst,
                worst_used)});
  }
  return goals;
}

void print_memory_table(std::ostream& out, const WorkloadMemory& w) {
  out << w.name << format(" (P = %d)", w.world) << "  [" << w.source << "]\n";
  for (const RankAnalysis& r : w.ranks) {
    print_parts(out, r);
    print_kinds(out, r);
  }
}

void print_goals(std::ostream& out, const std::vector<Goal>& goals) {
  for (const Goal& g : goals)
    out << (g.pass ? "PASS " : "FAIL ") << g.name << ": " << g.detail << "\n";
}

void write_memory_json(std::ostream& out, const Environment& where,
                       const std::vector<WorkloadMemory>& results, const std::vector<Goal>& goals) {
  const ObjectSizes s = object_sizes();
  const RankStateOptions defaults;
  out << "{\"experiment\": \"memory\", \"command\": " << json_string(where.command) << ", "
      << json_members(where) << ", \"object_sizes\": {\"channel\": " << s.channel
      << ", \"comm\": " << s.comm << ", \"comm_entry\": " << s.comm_entry
      << ", \"handle_slot\": " << s.handle_slot << ", \"runtime\": " << s.runtime
      << ", \"capi_context\": " << s.capi_context << ", \"box\": " << s.box
      << ", \"queues_measured\": " << s.queues << "}, \"context_ids\": " << defaults.id_capacity
      << ", \"derive_bits\": " << defaults.derive_bits << ", \"workloads\": [";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const WorkloadMemory& w = results[i];
    out << (i ? ",\n" : "\n") << "{\"name\": " << json_string(w.name)
        << ", \"source\": " << json_string(w.source) << ", \"world\": " << w.world
        << ", \"budget_bytes\": " << w.budget_bytes << ", \"ranks\": [";
    for (std::size_t k = 0; k < w.ranks.size(); ++k) {
      out << (k ? ", " : "");
      json_rank(out, w.ranks[k]);
    }
    out << "]}";
  }
  out << "\n], \"goals\": [";
  for (std::size_t i = 0; i < goals.size(); ++i)
    out << (i ? ", " : "") << "{\"goal\": " << json_string(goals[i].name)
        << ", \"pass\": " << (goals[i].pass ? "true" : "false")
        << ", \"detail\": " << json_string(goals[i].detail) << "}";
  out << "]}\n";
}

}  // namespace scomm::bench
