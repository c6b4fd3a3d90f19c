// Results of the group experiments and their text, JSON and CSV forms.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "baselines.hpp"
#include "measure.hpp"
#include "workloads.hpp"

namespace scomm::bench {

struct MapResult {
  std::string role;  // "space", "time", "hybrid" (a strategy's pick) or "candidate"
  MapMeasurement measurement;
};

struct WorkloadResult {
  std::string name;
  Rank world = 0, n = 0;
  Baselines baselines{};
  std::vector<MapResult> maps;
};

struct ExperimentResult {
  std::string experiment, command;
  int reps = 0;
  std::vector<WorkloadResult> workloads;
};

void print_table(std::ostream& out, const ExperimentResult& result);
// `other` holds ready JSON objects of experiments with their own shape, appended to the array.
void write_json(std::ostream& out, const std::vector<ExperimentResult>& results,
                const std::vector<std::string>& other);
void write_csv(std::ostream& out, const std::vector<ExperimentResult>& results);

}  // namespace scomm::bench
