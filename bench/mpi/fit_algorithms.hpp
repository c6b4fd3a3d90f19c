// The algorithms simulator-fit measures and simulates: each forced by its SCOMM_COLL_<OP>
// setting, its schedule as the library builds it for `count` doubles per block (with the segments
// the selection table gives), and the C call that runs it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::bench {

// Input and output of the measured calls: a block of up to 1 MiB per rank of the world each.
struct FitBuffers {
  explicit FitBuffers(int ranks);
  std::vector<double> in, out;
};

struct FitAlgorithm {
  const char* variable;  // SCOMM_COLL_<OP>
  const char* name;      // its value
  bool sized;            // false: the operation moves no data (barrier)
  coll::Schedule (*build)(const coll::Shape&, std::int64_t count);
  void (*run)(FitBuffers&, int count);
};

std::span<const FitAlgorithm> fit_algorithms();

}  // namespace scomm::bench
