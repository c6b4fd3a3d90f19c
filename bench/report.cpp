#include "report.hpp"

#include <cstdio>
#include <sstream>
#include <string>

namespace scomm::bench {
namespace {

std::string format(const char* pattern, auto... values) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, pattern, values...);
  return buffer;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}

std::string json_spread(const Spread& s) {
  return format("{\"median\": %.4g, \"min\": %.4g, \"max\": %.4g}", s.median, s.min, s.max);
}

void write_json_map(std::ostream& out, const MapResult& map) {
  const MapMeasurement& m = map.measurement;
  out << "        {\"role\": " << json_string(map.role)
      << ", \"representation\": " << json_string(m.representation) << ", \"bytes\": " << m.bytes
      << ", \"build_ms\": " << json_spread(m.build_ms)
      << ", \"select_ns\": " << json_spread(m.select_ns)
      << ", \"sequential_ns\": " << json_spread(m.sequential_ns)
      << ", \"reverse_ns\": " << json_spread(m.reverse_ns) << "}";
}

void write_json_workload(std::ostream& out, const WorkloadResult& w) {
  const Baselines& b = w.baselines;
  out << "      {\"workload\": " << json_string(w.name) << ", \"world\": " << w.world
      << ", \"n\": " << w.n
      << format(
             ", \"baselines\": {\"plain_array\": %.1f, \"mpich\": %.1f, \"open_mpi\": %.1f, "
             "\"bound\": %.1f},\n",
             b.plain_array, b.mpich, b.open_mpi, b.bound)
      << "       \"maps\": [\n";
  for (std::size_t i = 0; i < w.maps.size(); ++i) {
    write_json_map(out, w.maps[i]);
    out << (i + 1 < w.maps.size() ? ",\n" : "\n");
  }
  out << "      ]}";
}

}  // namespace

void print_table(std::ostream& out, const ExperimentResult& result) {
  out << "== " << result.experiment << " (medians of " << result.reps << ")\n"
      << format("%-40s %-8s %-22s %11s %8s %8s %8s %8s %9s\n", "workload", "role", "representation",
                "bytes", "x bound", "sel ns", "seq ns", "rev ns", "build ms");
  for (const WorkloadResult& w : result.workloads) {
    out << format("%-40s n=%-8d plain %.0f B, MPICH %.0f B, Open MPI %.0f B, bound %.0f B\n",
                  w.name.c_str(), w.n, w.baselines.plain_array, w.baselines.mpich,
                  w.baselines.open_mpi, w.baselines.bound);
    for (const MapResult& map : w.maps) {
      const MapMeasurement& m = map.measurement;
      out << format("%-40s %-8s %-22s %11zu %8.2f %8.1f %8.2f %8.1f %9.2f\n", "", map.role.c_str(),
                    m.representation.c_str(), m.bytes,
                    static_cast<double>(m.bytes) / std::max(1.0, w.baselines.bound),
                    m.select_ns.median, m.sequential_ns.median, m.reverse_ns.median,
                    m.build_ms.median);
    }
  }
}

void write_json(std::ostream& out, const std::vector<ExperimentResult>& results,
                const std::vector<std::string>& other) {
  std::vector<std::string> objects(other);
  for (const ExperimentResult& r : results) {
    std::ostringstream object;
    object << "{\"experiment\": " << json_string(r.experiment)
           << ", \"command\": " << json_string(r.command) << ", \"reps\": " << r.reps
           << ",\n   \"workloads\": [\n";
    for (std::size_t i = 0; i < r.workloads.size(); ++i) {
      write_json_workload(object, r.workloads[i]);
      object << (i + 1 < r.workloads.size() ? ",\n" : "\n");
    }
    object << "   ]}";
    objects.push_back(object.str());
  }
  out << "[\n";
  for (std::size_t i = 0; i < objects.size(); ++i)
    out << "  " << objects[i] << (i + 1 < objects.size() ? ",\n" : "\n");
  out << "]\n";
}

void write_csv(std::ostream& out, const std::vector<ExperimentResult>& results) {
  out << "experiment,workload,world,n,role,representation,bytes,bound_bytes,select_ns,"
         "sequential_ns,reverse_ns,build_ms\n";
  for (const ExperimentResult& r : results)
    for (const WorkloadResult& w : r.workloads)
      for (const MapResult& map : w.maps) {
        const MapMeasurement& m = map.measurement;
        out << json_string(r.experiment) << ',' << json_string(w.name) << ',' << w.world << ','
            << w.n << ',' << map.role << ',' << m.representation << ',' << m.bytes << ','
            << format("%.1f,%.3f,%.3f,%.3f,%.3f\n", w.baselines.bound, m.select_ns.median,
                      m.sequential_ns.median, m.reverse_ns.median, m.build_ms.median);
      }
}

}  // namespace scomm::bench
