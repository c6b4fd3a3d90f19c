// Results of the group experiments and their text, JSON and CSV forms.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "baselines.hpp"
#include "environment.hpp"
#include "measure.hpp"
#include "workloads.hpp"

namespace scomm::bench {

struct MapResult {
  // "space", "time", "hybrid" (a strategy's pick), "candidate" (a representation built by name)
  // or "reference" (the plain array, measured for the ratios when it is no candidate)
  std::string role;
  MapMeasurement measurement;
};

struct WorkloadResult {
  std::string name;
  Rank world = 0, n = 0;
  bool regular = false;
  Baselines baselines{};
  std::vector<MapResult> maps;
};

struct ExperimentResult {
  std::string experiment;
  Environment environment;
  int reps = 0;
  TimingOptions timing;
  std::vector<WorkloadResult> workloads;
};

double bytes_over_bound(const WorkloadResult& w, const MapMeasurement& m);
// Select time over the plain array's select time in the same run (0 when unknown).
double select_over_plain(const WorkloadResult& w, const MapMeasurement& m);

void print_table(std::ostream& out, const ExperimentResult& result);
// `other` holds ready JSON objects of experiments with their own shape, appended to the array.
void write_json(std::ostream& out, const std::vector<ExperimentResult>& results,
                const std::vector<std::string>& other);
void write_csv(std::ostream& out, const std::vector<ExperimentResult>& results);

}  // namespace scomm::bench
