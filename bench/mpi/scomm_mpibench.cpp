// scomm-mpibench: scomm's MPI experiments, scomm and the native MPI call side by side in one run
// on the same ranks. Run under mpirun; rank 0 prints a table and writes JSON.
//
//   mpirun -np P scomm-mpibench EXPERIMENT... [--reps N] [--quick] [--stress-splits N]
//                               [--json FILE] [--variant NAME] [--roots N] [--max-bytes N]
//                               [--topology FILE] [--only NAME,...]
//
// Experiments: split-halves, groups-of-four, context-stress, p2p-overhead, collectives,
// neighbor-collectives, dist-graph-create, split-ibcast, simulator-fit, janus-sort,
// multilevel-bcast.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>

#include <sched.h>

#include "../environment.hpp"
#include "experiments.hpp"
#include "scomm.h"

namespace scomm::bench {
namespace {

constexpr const char* kUsage =
    "usage: mpirun -np P scomm-mpibench EXPERIMENT... [--reps N] [--quick] [--stress-splits N] "
    "[--json FILE] [--variant NAME] [--roots N] [--max-bytes N] [--topology FILE] [--only "
    "NAME,...]\n"
    "experiments: split-halves groups-of-four context-stress p2p-overhead collectives "
    "neighbor-collectives dist-graph-create split-ibcast simulator-fit janus-sort "
    "multilevel-bcast";

using Experiment = std::vector<Row> (*)(const MpiBenchOptions&);

Experiment experiment_named(const std::string& name) {
  if (name == "split-halves") return split_halves;
  if (name == "groups-of-four") return groups_of_four;
  if (name == "context-stress") return context_stress;
  if (name == "p2p-overhead") return p2p_overhead;
  if (name == "collectives") return collectives;
  if (name == "neighbor-collectives") return neighbor_collectives;
  if (name == "dist-graph-create") return dist_graph_create;
  if (name == "split-ibcast") return split_ibcast;
  if (name == "simulator-fit") return simulator_fit;
  if (name == "janus-sort") return janus_sort;
  if (name == "multilevel-bcast") return multilevel_bcast;
  throw std::runtime_error("unknown experiment '" + name + "'\n" + kUsage);
}

struct Arguments {
  std::vector<Experiment> experiments;
  MpiBenchOptions options;
  std::string json, command;
  bool help = false;
};

Arguments parse(int argc, char** argv) {
  Arguments a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    a.command += (i > 1 ? " " : "") + arg;
    auto value = [&] {
      if (i + 1 >= argc) throw std::runtime_error(arg + " needs a value");
      a.command += std::string(" ") + argv[i + 1];
      return std::string(argv[++i]);
    };
    if (arg == "--reps")
      a.options.reps = std::stoi(value());
    else if (arg == "--quick")
      a.options.quick = true;
    else if (arg == "--stress-splits")
      a.options.stress_splits = std::stoi(value());
    else if (arg == "--variant")
      a.options.variant = value();
    else if (arg == "--roots")
      a.options.roots = std::stoi(value());
    else if (arg == "--max-bytes")
      a.options.max_bytes = std::stoi(value());
    else if (arg == "--topology")
      a.options.topology = value();
    else if (arg == "--only")
      a.options.only = value();
    else if (arg == "--json")
      a.json = value();
    else if (arg == "--help" || arg == "-h")
      a.help = true;
    else
      a.experiments.push_back(experiment_named(arg));
  }
  if (a.experiments.empty() && !a.help)
    throw std::runtime_error(std::string("no experiment named\n") + kUsage);
  return a;
}

// " --bind-to core" where mpirun bound this rank to one CPU, as scripts/bench_mpi.sh has it do
// wherever the ranks fit the cores: the recorded command then places ranks as the run did.
std::string binding_option() {
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  const bool one_cpu = sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_COUNT(&cpus) == 1;
  return one_cpu ? " --bind-to core" : "";
}

void write_json(const std::string& path, const Arguments& a, const std::vector<Row>& rows) {
  std::ofstream out(path);
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(version, &length);
  std::string mpi(version, static_cast<std::size_t>(length));
  mpi = mpi.substr(0, mpi.find_first_of(std::string("\n\0", 2)));
  int processes = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &processes);
  const Environment where = current_environment("mpirun -np " + std::to_string(processes) +
                                                binding_option() + " scomm-mpibench " + a.command);
  out << "{\n  \"tool\": \"scomm-mpibench\",\n  \"command\": " << json_string(where.command)
      << ",\n  \"mpi\": " << json_string(mpi) << ",\n  " << json_members(where)
      << ",\n  \"reps\": " << a.options.reps << ",\n  \"rows\": [\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    out << "    {\"experiment\": " << json_string(r.experiment)
        << ", \"name\": " << json_string(r.name) << ", \"unit\": " << json_string(r.unit)
        << ", \"processes\": " << r.processes << ", \"median\": " << r.value.median_ns
        << ", \"min\": " << r.value.min_ns << ", \"max\": " << r.value.max_ns << ", \"extra\": {";
    for (std::size_t k = 0; k < r.extra.size(); ++k)
      out << (k ? ", " : "") << json_string(r.extra[k].first) << ": "
          << json_string(r.extra[k].second);
    out << "}}" << (i + 1 < rows.size() ? "," : "") << "\n";
  }
  out << "  ]\n}\n";
}

void print(const std::vector<Row>& rows) {
  for (const Row& r : rows) {
    std::printf("%-16s P=%-3d %-58s %12.1f  [%.1f .. %.1f] %s", r.experiment.c_str(), r.processes,
                r.name.c_str(), r.value.median_ns, r.value.min_ns, r.value.max_ns, r.unit.c_str());
    for (const auto& [key, value] : r.extra) std::printf("  %s=%s", key.c_str(), value.c_str());
    std::printf("\n");
  }
}

}  // namespace
}  // namespace scomm::bench

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int status = 0;
  try {
    const auto arguments = scomm::bench::parse(argc, argv);
    if (arguments.help) {
      if (rank == 0) std::printf("%s\n", scomm::bench::kUsage);
      MPI_Finalize();
      return 0;
    }
    if (SCOMM_Init() != SCOMM_SUCCESS) throw std::runtime_error("SCOMM_Init failed");
    std::vector<scomm::bench::Row> rows;
    for (const auto experiment : arguments.experiments) {
      auto more = experiment(arguments.options);
      if (rank == 0) scomm::bench::print(more);
      rows.insert(rows.end(), more.begin(), more.end());
    }
    if (rank == 0 && !arguments.json.empty())
      scomm::bench::write_json(arguments.json, arguments, rows);
    SCOMM_Finalize();
  } catch (const std::exception& e) {
    if (rank == 0) std::fprintf(stderr, "scomm-mpibench: %s\n", e.what());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
