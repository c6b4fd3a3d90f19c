// scomm-bench: runs scomm's reproduction experiments by name and writes text, JSON and CSV.
//
//   scomm-bench EXPERIMENT... [--reps N] [--quick] [--filter TEXT] [--json FILE] [--csv FILE]
//               [--np P]
//
// Experiments in this process (no MPI): group-workloads, group-classes, group-cases, avrankmap,
// context-tables, multilevel-model, demo. Every other name is an MPI experiment of scomm-mpibench
// (split-halves, groups-of-four, context-stress, p2p-overhead, collectives, split-ibcast,
// simulator-fit, janus-sort, ...), which scomm-bench runs as `mpirun -np P scomm-mpibench ...` (P =
// 4 unless
// --np says), its JSON going to --json with ".mpi" before the extension when both kinds run.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "context_tables.hpp"
#include "multilevel_model.hpp"
#include "report.hpp"
#include "scomm/group/builder.hpp"
#include "scomm/group/choose_map.hpp"

namespace scomm::bench {
namespace {

struct Options {
  std::vector<std::string> experiments;
  int reps = 5;
  bool quick = false;
  int processes = 4;  // of the MPI experiments
  std::string filter, json, csv, command, program;
};

constexpr const char* kLocalExperiments[] = {
    "group-workloads", "group-classes",    "group-cases", "avrankmap",
    "context-tables",  "multilevel-model", "demo"};

bool is_local(const std::string& experiment) {
  return std::find(std::begin(kLocalExperiments), std::end(kLocalExperiments), experiment) !=
         std::end(kLocalExperiments);
}

constexpr std::pair<group::MapStrategy, const char*> kStrategies[] = {
    {group::MapStrategy::kSpace, "space"},
    {group::MapStrategy::kTime, "time"},
    {group::MapStrategy::kHybrid, "hybrid"}};

TimingOptions timing_for(bool quick) {
  return {std::size_t{1} << 17, quick ? 0.005 : 0.25};
}

std::function<group::MapPtr()> builder(const Workload& w, const std::string& name) {
  return [&w, name] {
    group::MapPtr map = group::build_named_map(w.members, name);
    if (!map) throw std::runtime_error("no representation named " + name);
    return map;
  };
}

std::function<group::MapPtr()> builder(const Workload& w, group::MapStrategy strategy) {
  return [&w, strategy] { return group::build_map(w.members, group::MapPolicy{strategy}); };
}

// Every strategy's pick and every candidate representation, plus the plain array when it is no
// candidate (the reference of the select-time ratios).
WorkloadResult run_workload(const Workload& w, int reps, const TimingOptions& timing) {
  WorkloadResult result{w.name,
                        w.world,
                        static_cast<Rank>(w.members.size()),
                        w.regular,
                        compute_baselines(w.members, w.world),
                        {}};
  const LookupSample sample = make_lookup_sample(w.members, timing.lookups);
  auto measure = [&](const char* role, const std::function<group::MapPtr()>& build) {
    result.maps.push_back({role, measure_map(build, sample, reps, timing)});
  };
  for (const auto& [strategy, role] : kStrategies) measure(role, builder(w, strategy));
  bool plain_measured = false;
  for (const group::MapCandidate& candidate : group::rank_candidates(w.members, {})) {
    measure("candidate", builder(w, candidate.name));
    plain_measured = plain_measured || candidate.name == "plain-array";
  }
  if (!plain_measured && !w.members.empty()) measure("reference", builder(w, "plain-array"));
  return result;
}

std::vector<Workload> workloads_of(const std::string& experiment, bool quick) {
  if (experiment == "group-workloads") return thesis_workloads(quick ? 10000 : 200000);
  if (experiment == "group-classes") return thesis_classes(quick ? 50000 : 1000000);
  if (experiment == "group-cases") return thesis_cases(quick ? 128 : 1024);
  if (experiment == "avrankmap") return avrankmap_workloads(quick ? 786432 / 32 : 786432);
  throw std::runtime_error("unknown experiment " + experiment);
}

ExperimentResult run_experiment(const std::string& experiment, const Options& options) {
  ExperimentResult result{experiment,
                          current_environment(options.command),
                          options.reps,
                          timing_for(options.quick),
                          {}};
  const auto workloads = workloads_of(experiment, options.quick);
  for (std::size_t i = 0; i < workloads.size(); ++i) {
    const Workload& w = workloads[i];
    if (w.name.find(options.filter) == std::string::npos) continue;
    std::fprintf(stderr, "[%s %zu/%zu] %s\n", experiment.c_str(), i + 1, workloads.size(),
                 w.name.c_str());
    result.workloads.push_back(run_workload(w, options.reps, result.timing));
  }
  return result;
}

// The demo's workloads: the seeds' best-known patterns at full size.
std::vector<Workload> demo_workloads() {
  const std::vector<std::pair<std::vector<Workload>, std::vector<std::string>>> picks = {
      {avrankmap_workloads(786432), {"even half", "reversed even half", "generation 4"}},
      {thesis_workloads(200000), {"3 cube", "8 5,000", "12 random", "14 ten"}},
      {thesis_classes(1000000), {"A 30,000", "E 300"}},
      {thesis_cases(1024), {"column", "transpose of 1024x1024", "G("}}};
  std::vector<Workload> chosen;
  for (const auto& [workloads, prefixes] : picks)
    for (const std::string& prefix : prefixes)
      for (const Workload& w : workloads)
        if (w.name.starts_with(prefix)) chosen.push_back(w);
  return chosen;
}

// A compact report: scomm's default (HYBRID) map beside what other systems would spend.
int run_demo() {
  const TimingOptions timing = timing_for(true);
  std::printf(
      "scomm group maps: bytes per group map and lookup time with the default (HYBRID) "
      "strategy,\nbeside a plain int array, MPICH, Open MPI (sparse groups) and the "
      "information-theoretic bound\n\n%-44s %9s %9s %10s %9s %9s %9s | %9s %-18s %7s %7s %7s\n",
      "workload", "world W", "members", "plain int", "MPICH", "Open MPI", "bound", "scomm",
      "representation", "sel ns", "plain", "rev ns");
  for (const Workload& w : demo_workloads()) {
    const Baselines b = compute_baselines(w.members, w.world);
    const LookupSample sample = make_lookup_sample(w.members, timing.lookups);
    const auto scomm = measure_map(builder(w, group::MapStrategy::kHybrid), sample, 1, timing);
    const auto plain = measure_map(builder(w, "plain-array"), sample, 1, timing);
    std::printf("%-44s %9d %9zu %10.0f %9.0f %9.0f %9.0f | %9zu %-18s %7.1f %7.1f %7.1f\n",
                w.name.c_str(), w.world, w.members.size(), b.plain_array, b.mpich, b.open_mpi,
                b.bound, scomm.bytes, scomm.representation.c_str(), scomm.select_ns.median,
                plain.select_ns.median, scomm.reverse_ns.median);
  }
  std::printf(
      "\nbytes: true memory of the map; sel ns: random select (group rank -> world rank), plain: "
      "the same on a plain array; rev ns: random rank_of.\nFull tables: scripts/bench.sh "
      "(writes docs/RESULTS.md).\n");
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
    else if (arg == "--np")
      o.processes = std::max(1, std::stoi(value()));
    else if (arg.starts_with("--"))
      throw std::runtime_error("unknown option " + arg);
    else
      o.experiments.push_back(arg);
  }
  if (o.experiments.empty()) throw std::runtime_error("name an experiment");
  o.program = argv[0];
  return o;
}

void write_files(const Options& options, const std::vector<ExperimentResult>& results,
                 const std::vector<std::string>& other_json) {
  if (!options.json.empty()) {
    std::ofstream file(options.json);
    write_json(file, results, other_json);
    if (!file) throw std::runtime_error("cannot write " + options.json);
  }
  if (!options.csv.empty()) {
    std::ofstream file(options.csv);
    write_csv(file, results);
    if (!file) throw std::runtime_error("cannot write " + options.csv);
  }
}

// `path` with ".mpi" before its extension.
std::string mpi_json_path(const std::string& path) {
  const auto dot = path.rfind('.');
  return dot == std::string::npos ? path + ".mpi" : path.substr(0, dot) + ".mpi" + path.substr(dot);
}

// Runs the MPI experiments under mpirun with scomm-mpibench, the program beside this one; its
// exit status.
int run_mpi_experiments(const Options& options, const std::vector<std::string>& experiments,
                        bool local_too) {
  const auto slash = options.program.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : options.program.substr(0, slash);
  std::vector<std::string> args = {"mpirun", "-np", std::to_string(options.processes),
                                   dir + "/scomm-mpibench"};
  args.insert(args.end(), experiments.begin(), experiments.end());
  args.insert(args.end(), {"--reps", std::to_string(options.reps)});
  if (options.quick) args.push_back("--quick");
  if (!options.json.empty())
    args.insert(args.end(), {"--json", local_too ? mpi_json_path(options.json) : options.json});
  std::string line;
  for (const std::string& a : args) line += (line.empty() ? "" : " ") + a;
  std::fprintf(stderr, "[mpi] %s\n", line.c_str());
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child == 0) {
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    std::perror("scomm-bench: mpirun");
    _exit(127);
  }
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) < 0) throw std::runtime_error("cannot run mpirun");
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int run(int argc, char** argv) {
  const Options options = parse(argc, argv);
  if (options.experiments == std::vector<std::string>{"demo"}) return run_demo();
  std::vector<std::string> local, mpi;
  for (const std::string& experiment : options.experiments)
    (is_local(experiment) ? local : mpi).push_back(experiment);
  const int mpi_status = mpi.empty() ? 0 : run_mpi_experiments(options, mpi, !local.empty());
  std::vector<ExperimentResult> results;
  std::vector<std::string> other_json;  // experiments with their own result shape
  for (const std::string& experiment : local) {
    if (experiment == "context-tables") {
      other_json.push_back(
          run_context_tables(std::cout, options.reps, options.quick, options.command));
      continue;
    }
    if (experiment == "multilevel-model") {
      other_json.push_back(run_multilevel_model(std::cout, options.quick, options.command));
      continue;
    }
    results.push_back(run_experiment(experiment, options));
    print_table(std::cout, results.back());
  }
  if (!local.empty()) write_files(options, results, other_json);
  return mpi_status;
}

}  // namespace
}  // namespace scomm::bench

int main(int argc, char** argv) {
  try {
    return scomm::bench::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(
        stderr,
        "scomm-bench: %s\nusage: scomm-bench EXPERIMENT... [--reps N] [--quick] "
        "[--filter TEXT] [--json FILE] [--csv FILE] [--np P]\nexperiments: group-workloads "
        "group-classes group-cases avrankmap context-tables multilevel-model demo, and under "
        "mpirun "
        "those of scomm-mpibench --help\n",
        e.what());
    return 2;
  }
}
