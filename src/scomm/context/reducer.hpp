// The reductions a context allocation needs over the members of the communicator it allocates
// for, started and then tested so that allocations can be nonblocking. The comm layer supplies
// one over its own collectives; tests supply one over MPI_Iallreduce.
#pragma once

#include <cstdint>
#include <span>

namespace scomm::context {

class Reducer {
 public:
  virtual ~Reducer() = default;
  // Starts an elementwise MAX over all members, in place.
  virtual void start_max(std::span<std::int64_t> values) = 0;
  // Starts a bitwise AND over all members, in place.
  virtual void start_and(std::span<std::uint64_t> bits) = 0;
  // True once the reduction started last has completed.
  virtual bool test() = 0;
};

}  // namespace scomm::context
