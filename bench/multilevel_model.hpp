// The multilevel-model experiment: the broadcast variants of the SMPI experiment (flat binomial,
// 2-level by site, 2-level by machine, multilevel) on the schedule simulator, with the platforms'
// true links per level, from the seed's 48 ranks to 2^20 ranks on four levels: time, and the
// messages per level in all and on the critical path (one WAN message per site, or more).
#pragma once

#include <ostream>
#include <string>

namespace scomm::bench {

// Runs the experiment, prints a table and returns its JSON object.
std::string run_multilevel_model(std::ostream& out, bool quick, const std::string& command);

}  // namespace scomm::bench
