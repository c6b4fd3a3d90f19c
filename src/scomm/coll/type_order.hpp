// Whether a datatype's elements run through memory in the order MPI packs them: each entry of
// its type map after the one before, none overlapping (gaps allowed). Sizes and extents cannot
// tell it: an indexed type of blocks {3, 0} is as dense as a contiguous one, but its packed bytes
// are not its memory's. Decoded from the type's constructors (MPI_Type_get_contents).
#pragma once

#include <mpi.h>

namespace scomm::coll {

// True where the map is in pack order, as for every predefined type; false where it is not, or
// where the decoding cannot tell (a constructor it does not follow, nesting deeper than 8).
// SimGrid SMPI 3.32 misreports constructors (a resized type as combiner 6): there every type
// counts as in order, as scomm assumed before this check.
bool runs_in_pack_order(MPI_Datatype type);

}  // namespace scomm::coll
