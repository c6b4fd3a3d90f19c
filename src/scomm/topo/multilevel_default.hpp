// When a collective runs multilevel without being asked (SCOMM_COLL_<OP> unset): the user named
// network levels above the node (SCOMM_TOPO_FILE, _COLORS or _BLOCKS), the operation is one that
// goes multilevel by default (coll::Selection::multilevel_by_default), and the communicator spans
// more than one cluster of its outermost level. Elsewhere the multilevel schedule is the flat one
// with extra steps, and the size-based table chooses better.
#pragma once

#include "scomm/coll/selection.hpp"
#include "scomm/topo/levels.hpp"

namespace scomm::topo {

inline bool multilevel_by_default(coll::Operation operation, const Levels& levels) {
  return coll::Selection::multilevel_by_default(operation) && levels.depth() > 0 &&
         levels.clusters(0) > 1;
}

}  // namespace scomm::topo
