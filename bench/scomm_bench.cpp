// scomm-bench: runs scomm's reproduction experiments by name and writes text, JSON and CSV.
//
//   scomm-bench EXPERIMENT... [--reps N] [--quick] [--filter TEXT] [--json FILE] [--csv FILE]
//
// Experiments: group-workloads, group-classes, group-cases, avrankmap, context-tables, demo.
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "context_tables.hpp"
#include "report.hpp"
#include "scomm/group/builder.hpp"
#include "scomm/group/choose_map.hpp"

namespace scomm::bench {
namespace {

struct Options {
  std::vector<std::string> experiments;
  int reps = 5;
  bool quick = false;
  std::string filter, json, csv, command;
};

const std::map<group::MapStrategy, const char*> kStrategies{
    {group::MapStrategy::kSpace, "space"},
    {group::MapStrategy::kTime, "time"},
    {group::MapStrategy::kHybrid, "hybrid"}};

WorkloadResult run_workload(const Workload& w, int reps, bool with_candidates) {
  WorkloadResult result{w.name,
                        w.world,
                        static_cast<Rank>(w.members.size()),
                        compute_baselines(w.members, w.world),
                        {}};
  for (const auto& [strategy, role] : kStrategies) {
    const group::MapPolicy policy{strategy, 0.25};
    result.maps.push_back(
        {role, measure_map([&] { return group::build_map(w.members, policy); }, reps)});
  }
  if (!with_candidates) return result;
  for (const auto& candidate : group::rank_candidates(w.members, group::MapPolicy{})) {
    auto build = [&] { return group::build_named_map(w.members, candidate.name); };
    result.maps.push_back({"candidate", measure_map(build, reps)});
  }
  return result;
}

std::vector<Workload> workloads_of(const std::string& experiment, bool quick) {
  const Rank scale = quick ? 20 : 1;
  if (experiment == "group-workloads") return thesis_workloads(200000 / scale);
  if (experiment == "group-classes") return thesis_classes(1000000 / scale);
  if (experiment == "group-cases") return thesis_cases();
  if (experiment == "avrankmap") return avrankmap_workloads(786432 / scale);
  return {};
}

ExperimentResult run_experiment(const std::string& experiment, const Options& options) {
  ExperimentResult result{experiment, options.command, options.reps, {}};
  const auto workloads = workloads_of(experiment, options.quick);
  if (workloads.empty()) throw std::runtime_error("unknown experiment " + experiment);
  for (std::size_t i = 0; i < workloads.size(); ++i) {
    const Workload& w = workloads[i];
    if (w.name.find(options.filter) == std::string::npos) continue;
    std::fprintf(stderr, "[%s %zu/%zu] %s\n", experiment.c_str(), i + 1, workloads.size(),
                 w.name.c_str());
    result.workloads.push_back(run_workload(w, options.reps, true));
  }
  return result;
}

// The demo: what a map costs in scomm and elsewhere, on the seeds' best-known workloads.
int run_demo() {
  std::vector<Workload> chosen;
  for (auto& w : avrankmap_workloads(786432))
    if (w.name.starts_with("even") || w.name.starts_with("generation 4")) chosen.push_back(w);
  for (auto& w : thesis_workloads(200000))
    if (w.name.starts_with("8 ") || w.name.starts_with("12 ") || w.name.starts_with("14 "))
      chosen.push_back(w);
  for (auto& w : thesis_cases())
    if (w.name.find("column") != std::string::npos || w.name.starts_with("transpose"))
      chosen.push_back(w);
  std::printf("scomm group maps: bytes per map (HYBRID strategy) vs other MPI libraries\n\n");
  std::printf("%-40s %9s %11s %11s %11s %11s %-16s %7s %7s\n", "workload", "members", "plain int",
              "MPICH", "Open MPI", "scomm", "representation", "sel ns", "rev ns");
  for (const Workload& w : chosen) {
    const Baselines b = compute_baselines(w.members, w.world);
    const auto m = measure_map([&] { return group::build_map(w.members, {}); }, 1);
    std::printf("%-40s %9zu %11.0f %11.0f %11.0f %11zu %-16s %7.1f %7.1f\n", w.name.c_str(),
                w.members.size(), b.plain_array, b.mpich, b.open_mpi, m.bytes,
                m.representation.c_str(), m.select_ns.median, m.reverse_ns.median);
  }
  std::printf("\nFull tables: scripts/bench.sh (writes docs/RESULTS.md).\n");
  return 0;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 0; i < argc; ++i) o.command += (i ? " " : "") + std::string(argv[i]);
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&] {
      if (i + 1 >= argc) throw std::runtime_error(arg + " needs a value");
      return std::string(argv[++i]);
    };
    if (arg == "--reps")
      o.reps = std::max(1, std::stoi(value()));
    else if (arg == "--quick")
      o.quick = true;
    else if (arg == "--filter")
      o.filter = value();
    else if (arg == "--json")
      o.json = value();
    else if (arg == "--csv")
      o.csv = value();
    else
      o.experiments.push_back(arg);
  }
  if (o.experiments.empty()) throw std::runtime_error("name an experiment");
  return o;
}

int run(int argc, char** argv) {
  const Options options = parse(argc, argv);
  if (options.experiments == std::vector<std::string>{"demo"}) return run_demo();
  std::vector<ExperimentResult> results;
  std::vector<std::string> other_json;  // experiments with their own result shape
  for (const std::string& experiment : options.experiments) {
    if (experiment == "context-tables") {
      other_json.push_back(
          run_context_tables(std::cout, options.reps, options.quick, options.command));
      continue;
    }
    results.push_back(run_experiment(experiment, options));
    print_table(std::cout, results.back());
  }
  if (!options.json.empty()) {
    std::ofstream file(options.json);
    write_json(file, results, other_json);
  }
  if (!options.csv.empty()) {
    std::ofstream file(options.csv);
    write_csv(file, results);
  }
  return 0;
}

}  // namespace
}  // namespace scomm::bench

int main(int argc, char** argv) {
  try {
    return scomm::bench::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr,
                 "scomm-bench: %s\nusage: scomm-bench EXPERIMENT... [--reps N] [--quick] "
                 "[--filter TEXT] [--json FILE] [--csv FILE]\nexperiments: group-workloads "
                 "group-classes group-cases avrankmap context-tables demo\n",
                 e.what());
    return 2;
  }
}
