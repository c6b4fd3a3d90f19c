#include "scomm/coll/type_layout.hpp"

namespace scomm::coll {

TypeLayout TypeLayout::of(MPI_Datatype type) {
  TypeLayout layout;
  layout.type = type;
  if (type == MPI_DATATYPE_NULL) return layout;
  MPI_Aint lb = 0;
  MPI_Type_get_extent(type, &lb, &layout.extent);
  MPI_Type_get_true_extent(type, &layout.true_lb, &layout.true_extent);
  MPI_Type_size(type, &layout.size);
  layout.plain = lb == 0 && layout.true_lb == 0 && layout.extent == layout.size &&
                 layout.true_extent == layout.size;
  return layout;
}

}  // namespace scomm::coll
