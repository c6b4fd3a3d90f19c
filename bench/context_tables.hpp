// The context-tables experiment: lookup and update cost and memory of each context -> communicator
// storage strategy, for growing numbers of live communicators.
#pragma once

#include <ostream>
#include <string>

namespace scomm::bench {

// Runs the experiment, prints a table and returns its JSON object.
std::string run_context_tables(std::ostream& out, int reps, bool quick, const std::string& command);

}  // namespace scomm::bench
