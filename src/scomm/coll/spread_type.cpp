#include "scomm/coll/spread_type.hpp"

#include "scomm/p2p/mpi_check.hpp"

namespace scomm::coll {

SpreadType::~SpreadType() {
  if (type_ != MPI_DATATYPE_NULL) MPI_Type_free(&type_);
}

const TypeLayout& SpreadType::spread(const TypeLayout& layout) {
  if (type_ != MPI_DATATYPE_NULL) MPI_Type_free(&type_);
  if (layout.in_order && !is_sparse(layout))
    p2p::check_mpi(MPI_Type_create_resized(layout.type, layout.true_lb, layout.true_extent, &type_),
                   "MPI_Type_create_resized");
  else  // entries out of order or twice, or far apart: an element's packed bytes
    p2p::check_mpi(MPI_Type_contiguous(layout.size, MPI_BYTE, &type_), "MPI_Type_contiguous");
  p2p::check_mpi(MPI_Type_commit(&type_), "MPI_Type_commit");
  layout_ = TypeLayout::of(type_);
  return layout_;
}

}  // namespace scomm::coll
