// Defects of SimGrid SMPI 3.32's own MPI that the tests meet when they run there, each reproduced
// by a plain MPI program on SMPI alone. The tests compare scomm with the MPI library's answer;
// where SMPI's answer is wrong they check scomm against MPI's definition instead, or leave that
// one case out, on SMPI only.
#pragma once

#include <mpi.h>

#if defined(SMPI_H)  // SMPI's mpi.h
inline constexpr bool kOnSmpi = true;
#else
inline constexpr bool kOnSmpi = false;
#endif

namespace smpi_defect {

// MPI_Group_range_incl refuses a triplet whose `last` is the group's size (MPI_ERR_RANK), where
// MPI asks only the ranks it computes to be the group's, and Open MPI and MPICH take it.
inline constexpr bool kRangeLastIsARank = kOnSmpi;
// Nonblocking reductions with a user-defined MPI_Op (MPI_Iallreduce, MPI_Ireduce_scatter_block,
// ...) leave every rank its own data.
inline constexpr bool kNonblockingUserOps = kOnSmpi;
// MPI_Scan and MPI_Exscan with a user-defined MPI_Op leave every rank its own data.
inline constexpr bool kScanUserOps = kOnSmpi;
// MPI_Iexscan folds every prefix onto a zero (right for sums only: MPI_MAX of negative doubles
// gives 0).
inline constexpr bool kIexscan = kOnSmpi;
// MPI_Ialltoall with MPI_IN_PLACE corrupts some elements (40,000 ints per block, 3 ranks).
inline constexpr bool kIalltoallInPlace = kOnSmpi;
// MPI_Alltoallw with MPI_IN_PLACE delivers another element where a block's type has gaps (a
// MPI_INT resized to an extent of 8 bytes: one rank of three receives 225 where 21 was sent).
inline constexpr bool kAlltoallwInPlace = kOnSmpi;
// MPI_Type_dup of a vector type makes one that MPI_Pack crashes on or packs wrongly (scomm keeps
// the caller's types there: coll/owned_types.hpp), and MPI_BOTTOM is not null but (void*)-111.
inline constexpr bool kTypeDup = kOnSmpi;
// MPI_Pack of an uncommitted type raises MPI_ERR_TYPE on MPI_COMM_WORLD's handler, fatal,
// whatever the communicator passed: scomm does not check commitment there.
inline constexpr bool kUncommittedPackAborts = kOnSmpi;
inline constexpr bool kBottomNotNull = kOnSmpi;
// MPI_Type_size_x of a type of more than INT_MAX bytes (3 of 2^30 bytes) gives no such size: a
// receive of one element into it reads as room for less than 100 bytes.
inline constexpr bool kTypeSizeOverInt = kOnSmpi;
// MPI_Sendrecv_replace of a count of 0 fails an assertion (size > 0) and aborts the simulation.
inline constexpr bool kSendrecvReplaceOfNothing = kOnSmpi;
// MPI_Type_get_true_extent of a resized type gives its extent (a vector of 3 ints of stride 2
// resized to 4 bytes: true extent 4, not 20), so a send type whose elements overlap looks like
// one that does not, and temporaries of it overlap (or are too short).
inline constexpr bool kResizedTrueExtent = kOnSmpi;
// MPI_Allgather with an indexed type of blocks {3, 0} (ints 3-5, then 0-2) places the blocks
// wrongly on either side (received as it: half the buffer left untouched at one rank).
inline constexpr bool kPermutedIndexedTypes = kOnSmpi;
// MPI_Cart_sub gives ranks other than 0 a grid with wrong extents (0 for some) and coordinates,
// and MPI_Cart_coords then divides by zero.
inline constexpr bool kCartSub = kOnSmpi;
// MPI_Wait, MPI_Test and MPI_Waitsome tell a truncated receive in its status alone, returning
// MPI_SUCCESS.
inline constexpr bool kTruncationInStatusOnly = kOnSmpi;
// MPI_Testall, returning flag 0, completes the persistent requests it finds complete: the call
// that returns flag 1 then reports them inactive (MPI_ANY_SOURCE, MPI_ANY_TAG, count 0).
inline constexpr bool kTestallCompletesEarly = kOnSmpi;
// MPI_Testany never reports a receive from MPI_PROC_NULL complete (MPI_Testsome and MPI_Waitany
// do at once).
inline constexpr bool kTestanySkipsProcNull = kOnSmpi;
// MPI_Topo_test, MPI_Dist_graph_* and MPI_Neighbor_* abort ("Not yet implemented"): only Cartesian
// communicators exist there.
inline constexpr bool kNoNeighborhoods = kOnSmpi;
// MPI_Sendrecv_replace reports a message the caller sent itself as from its rank + 1.
inline constexpr bool kSendrecvReplaceFromSelf = kOnSmpi;
// MPI_Get_elements aborts ("Not yet implemented"): SCOMM_Get_elements says so.
inline constexpr bool kNoGetElements = kOnSmpi;
// After MPI_Status_set_elements(status, MPI_INT, 6), MPI_Get_count reads MPI_UNDEFINED.
inline constexpr bool kStatusSetElements = kOnSmpi;
// MPI_Group_intersection orders the result as the second group; MPI-3.1 6.3.2 as the first.
inline constexpr bool kIntersectionOrder = kOnSmpi;
// Receives from oneself cancelled at random among blocking sends to oneself (8 ranks, each 3,000
// steps over 64 request slots: MPI_Irecv, MPI_Send, MPI_Cancel, MPI_Test) end the simulation:
// MPI_Wait raises simgrid::NetworkFailureException, or the heap is corrupted at exit.
inline constexpr bool kCancelAmongSends = kOnSmpi;

}  // namespace smpi_defect
