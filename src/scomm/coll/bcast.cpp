#include "scomm/coll/bcast_binomial.hpp"
#include "scomm/coll/operations.hpp"

namespace scomm::coll {

p2p::Request bcast(const Call& call, void* buffer, int count, MPI_Datatype type, int root) {
  check_root(call, root);
  check_data(buffer, count, type);
  const Shape shape = call.shape(root);
  Schedule schedule;
  switch (call.selection.choose(Operation::kBcast, bytes_of(count, type), shape.size)) {
    default:
      schedule = bcast_binomial(shape, count);
  }
  return launch(call, std::move(schedule), Binding{buffer, type, buffer, type, MPI_OP_NULL});
}

}  // namespace scomm::coll
