#include "report.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace scomm::bench {
namespace {

std::string format(const char* pattern, auto... values) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, pattern, values...);
  return buffer;
}

std::string json_spread(const Spread& s) {
  return format("{\"median\": %.4g, \"min\": %.4g, \"max\": %.4g}", s.median, s.min, s.max);
}

void write_json_map(std::ostream& out, const WorkloadResult& w, const MapResult& map) {
  const MapMeasurement& m = map.measurement;
  out << "        {\"role\": " << json_string(map.role)
      << ", \"representation\": " << json_string(m.representation)
      << ", \"regular\": " << (m.regular ? "true" : "false") << ", \"bytes\": " << m.bytes
      << format(", \"x_bound\": %.4g, \"x_plain_select\": %.4g", bytes_over_bound(w, m),
                select_over_plain(w, m))
      << ",\n         \"build_ms\": " << json_spread(m.build_ms)
      << ", \"select_ns\": " << json_spread(m.select_ns)
      << ",\n         \"sequential_ns\": " << json_spread(m.sequential_ns)
      << ", \"reverse_ns\": " << json_spread(m.reverse_ns)
      << ", \"select_lookups\": " << m.select_lookups
      << ", \"reverse_lookups\": " << m.reverse_lookups << "}";
}

void write_json_workload(std::ostream& out, const WorkloadResult& w) {
  const Baselines& b = w.baselines;
  out << "      {\"workload\": " << json_string(w.name) << ", \"world\": " << w.world
      << ", \"n\": " << w.n << ", \"regular\": " << (w.regular ? "true" : "false")
      << format(
             ", \"baselines\": {\"plain_array\": %.1f, \"mpich\": %.1f, \"open_mpi\": %.1f, "
             "\"bound\": %.1f},\n",
             b.plain_array, b.mpich, b.open_mpi, b.bound)
      << "       \"maps\": [\n";
  for (std::size_t i = 0; i < w.maps.size(); ++i) {
    write_json_map(out, w, w.maps[i]);
    out << (i + 1 < w.maps.size() ? ",\n" : "\n");
  }
  out << "      ]}";
}

std::string json_experiment(const ExperimentResult& r) {
  const Environment& e = r.environment;
  std::ostringstream object;
  object << "{\"experiment\": " << json_string(r.experiment)
         << ", \"command\": " << json_string(e.command) << ",\n   " << json_members(e)
         << ",\n   \"reps\": " << r.reps << ", \"lookups_per_batch\": " << r.timing.lookups
         << ", \"batch_budget_s\": " << r.timing.budget_seconds << ",\n   \"workloads\": [\n";
  for (std::size_t i = 0; i < r.workloads.size(); ++i) {
    write_json_workload(object, r.workloads[i]);
    object << (i + 1 < r.workloads.size() ? ",\n" : "\n");
  }
  object << "   ]}";
  return object.str();
}

void print_workload(std::ostream& out, const WorkloadResult& w) {
  const Baselines& b = w.baselines;
  out << format("%s  (n = %d, W = %d)  plain %.0f B, MPICH %.0f B, Open MPI %.0f B, bound %.0f B\n",
                w.name.c_str(), w.n, w.world, b.plain_array, b.mpich, b.open_mpi, b.bound);
  for (const MapResult& map : w.maps) {
    const MapMeasurement& m = map.measurement;
    const std::string range = format("%.1f-%.1f", m.select_ns.min, m.select_ns.max);
    out << format("  %-9s %-18s %11zu %8.2f %9.1f %-15s %7.2f %8.2f %9.1f %9.2f\n",
                  map.role.c_str(), m.representation.c_str(), m.bytes, bytes_over_bound(w, m),
                  m.select_ns.median, range.c_str(), select_over_plain(w, m),
                  m.sequential_ns.median, m.reverse_ns.median, m.build_ms.median);
  }
}

}  // namespace

double bytes_over_bound(const WorkloadResult& w, const MapMeasurement& m) {
  return static_cast<double>(m.bytes) / std::max(1.0, w.baselines.bound);
}

double select_over_plain(const WorkloadResult& w, const MapMeasurement& m) {
  for (const MapResult& map : w.maps)
    if (map.measurement.representation == "plain-array" && map.measurement.select_ns.median > 0)
      return m.select_ns.median / map.measurement.select_ns.median;
  return 0;
}

void print_table(std::ostream& out, const ExperimentResult& result) {
  const Environment& e = result.environment;
  out << "== " << result.experiment << ": medians of " << result.reps << " builds; "
      << result.timing.lookups << " random lookups a batch\n"
      << "   " << e.command << "\n   " << e.cpu << ", " << e.cores << " cores; " << e.compiler
      << "; " << e.date << "\n"
      << format("  %-9s %-18s %11s %8s %9s %-15s %7s %8s %9s %9s\n", "role", "representation",
                "bytes", "x bound", "select ns", "(min-max)", "x plain", "seq ns", "reverse ns",
                "build ms");
  for (const WorkloadResult& w : result.workloads) print_workload(out, w);
  out << '\n';
}

void write_json(std::ostream& out, const std::vector<ExperimentResult>& results,
                const std::vector<std::string>& other) {
  std::vector<std::string> objects;
  for (const ExperimentResult& r : results) objects.push_back(json_experiment(r));
  objects.insert(objects.end(), other.begin(), other.end());
  out << "[\n";
  for (std::size_t i = 0; i < objects.size(); ++i)
    out << "  " << objects[i] << (i + 1 < objects.size() ? ",\n" : "\n");
  out << "]\n";
}

void write_csv(std::ostream& out, const std::vector<ExperimentResult>& results) {
  out << "experiment,workload,world,n,role,representation,regular,bytes,bound_bytes,x_bound,"
         "select_ns,select_min_ns,select_max_ns,x_plain_select,sequential_ns,reverse_ns,build_ms,"
         "plain_bytes,mpich_bytes,open_mpi_bytes\n";
  for (const ExperimentResult& r : results)
    for (const WorkloadResult& w : r.workloads)
      for (const MapResult& map : w.maps) {
        const MapMeasurement& m = map.measurement;
        const Baselines& b = w.baselines;
        out << json_string(r.experiment) << ',' << json_string(w.name) << ',' << w.world << ','
            << w.n << ',' << map.role << ',' << m.representation << ',' << m.regular << ','
            << m.bytes
            << format(",%.1f,%.4f,%.3f,%.3f,%.3f,%.4f,%.3f,%.3f,%.3f,%.0f,%.0f,%.0f\n", b.bound,
                      bytes_over_bound(w, m), m.select_ns.median, m.select_ns.min, m.select_ns.max,
                      select_over_plain(w, m), m.sequential_ns.median, m.reverse_ns.median,
                      m.build_ms.median, b.plain_array, b.mpich, b.open_mpi);
      }
}

}  // namespace scomm::bench
