// The MPI build's subgroups: MPI_Comm_split.
#include "backend.hpp"

namespace janus::detail {

MpiCalls::Comm MpiCalls::create(Comm parent, std::span<const Range> ranges) {
  // A split gives each process one color: overlapping ranges (a Janus rank in both) need one
  // split each, as RBC's "MPI Split" baseline does; disjoint ones share a split.
  const int rank_in_parent = MpiBackend::rank(parent);
  const int mine = range_of(ranges, rank_in_parent);
  Comm child = kNullComm;
  MpiBackend::check(MPI_Comm_split(parent, mine < 0 ? MPI_UNDEFINED : mine, rank_in_parent, &child),
                    "Comm_split");
  return child;
}

}  // namespace janus::detail
