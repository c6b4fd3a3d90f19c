#include "scomm/coll/bcast_bytes.hpp"

#include <cstddef>

#include "scomm/coll/type_layout.hpp"

namespace scomm::coll {

BcastBytes bcast_bytes(void* buffer, int count, MPI_Datatype type, MPI_Comm comm) {
  const TypeLayout layout = TypeLayout::of(type);
  check_committed(layout, comm);  // a run on bytes never binds the type
  BcastBytes view{count, std::int64_t{count} * layout.size, false, {}};
  // One run of bytes in pack order (an indexed type of blocks {3, 0} is dense, not in order).
  const bool contiguous = layout.in_order && layout.size == layout.true_extent &&
                          (count <= 1 || layout.extent == layout.size);
  if (!contiguous) {
    view.packed = true;
    view.binding = Binding{buffer, type, buffer, type, MPI_OP_NULL};
    return view;
  }
  void* first = displaced(buffer, layout.true_lb);
  view.binding = Binding{first, MPI_BYTE, first, MPI_BYTE, MPI_OP_NULL};
  return view;
}

}  // namespace scomm::coll
