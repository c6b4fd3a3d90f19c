#include "scomm/coll/type_layout.hpp"

#include <cstddef>
#include <initializer_list>

#include "scomm/base/error.hpp"
#include "scomm/coll/type_order.hpp"
#include "scomm/p2p/committed_type.hpp"

namespace scomm::coll {

namespace {

// The predefined types collectives use most: contiguous by definition, so one query suffices.
bool is_plain_predefined(MPI_Datatype type) {
  for (const MPI_Datatype plain :
       {MPI_BYTE, MPI_CHAR, MPI_INT, MPI_UNSIGNED, MPI_LONG, MPI_UNSIGNED_LONG, MPI_LONG_LONG,
        MPI_FLOAT, MPI_DOUBLE, MPI_INT32_T, MPI_INT64_T, MPI_UINT32_T, MPI_UINT64_T})
    if (type == plain) return true;
  return false;
}

}  // namespace

namespace {
const TypeLayout kBytes{MPI_BYTE, 1, 0, 1, 1, true, true, true};
}  // namespace

const TypeLayout& TypeLayout::bytes() noexcept {
  return kBytes;
}

TypeLayout TypeLayout::of(MPI_Datatype type) {
  TypeLayout layout;
  layout.type = type;
  if (type == MPI_DATATYPE_NULL) return layout;
  if (is_plain_predefined(type)) {
    MPI_Type_size(type, &layout.size);
    layout.extent = layout.true_extent = layout.size;
    layout.plain = layout.predefined = layout.in_order = true;
    return layout;
  }
  MPI_Aint lb = 0;
  MPI_Type_get_extent(type, &lb, &layout.extent);
  MPI_Type_get_true_extent(type, &layout.true_lb, &layout.true_extent);
  MPI_Type_size(type, &layout.size);
  if (layout.size == MPI_UNDEFINED)  // schedules count an element's bytes in an int
    throw Error(ErrorClass::kNotSupported,
                "a datatype of more than INT_MAX bytes an element in a collective");
  int integers = 0, addresses = 0, types = 0, combiner = MPI_COMBINER_NAMED;
  MPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner);
  layout.predefined = combiner == MPI_COMBINER_NAMED;  // MPI_SHORT, MPI_2INT, ...
  layout.in_order = layout.predefined || runs_in_pack_order(type);
  layout.plain = lb == 0 && layout.true_lb == 0 && layout.extent == layout.size &&
                 layout.true_extent == layout.size && layout.in_order;
  return layout;
}

void check_committed(const TypeLayout& layout, MPI_Comm comm) {
  if (!layout.predefined) p2p::check_committed(layout.type, comm);
}

}  // namespace scomm::coll
