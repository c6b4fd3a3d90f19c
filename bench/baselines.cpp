#include "baselines.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace scomm::bench {
namespace {

using group::Rank;

// MPICH since PR #7235 ("group: refactor MPIR_Group"; PR #7240 then removed the CH4 rank map
// MPIDI_rank_map_t of the AV-Rankmap paper, keeping its modes in the group). A group's map is a
// struct MPIR_Pmap (src/include/mpir_group.h): { int size; bool use_map; union { MPIR_Lpid *map;
// struct { MPIR_Lpid offset, stride, blocksize; } stride; } }, 32 bytes with padding, where
// MPIR_Lpid is int64_t. MPIR_Group_create_map (src/mpi/group/grouputil.c, check_map_is_strided)
// keeps the strided form when the lpids are offset + (r / blocksize) * stride + r % blocksize,
// blocksize being the length of the first run of consecutive lpids and stride the gap between
// the first two blocks (possibly negative); otherwise it keeps the array, 8 bytes per member
// (its reverse lookup is then a linear search). Multi-level boxes are not detected.
bool mpich_strided(std::span<const Rank> members) {
  const std::size_t n = members.size();
  std::size_t block = 1;
  while (block < n && members[block] - members[block - 1] == 1) ++block;
  if (block == n) return true;
  const std::int64_t stride = members[block] - members[0];
  for (std::size_t k = 0; k < n; ++k) {
    const auto i = static_cast<std::int64_t>(k / block), j = static_cast<std::int64_t>(k % block);
    if (members[k] != members[0] + i * stride + j) return false;
  }
  return true;
}

double mpich_bytes(std::span<const Rank> members) {
  constexpr double kPmap = 32;
  if (members.empty()) return 0;  // MPI_GROUP_EMPTY, a preallocated object
  return mpich_strided(members) ? kPmap : kPmap + 8.0 * static_cast<double>(members.size());
}

// Open MPI's sparse groups (configure --enable-sparse-groups; off by default, when every group
// is the dense list). ompi_group_incl (ompi/group/group.c) takes the smallest valid of
// ompi_group_calc_plist (sizeof(ompi_proc_t*) per member), ompi_group_calc_strided (3 ints, valid
// when all gaps are equal and >= 0), ompi_group_calc_sporadic (2 ints per run of consecutive
// ranks) and ompi_group_calc_bmap (one bit per rank of the parent group, here the world, valid
// only for increasing ranks); ties go to the earlier format.
double open_mpi_strided(std::span<const Rank> members) {
  const Rank gap = members.size() > 1 ? members[1] - members[0] : 1;
  const bool equal_gaps = std::adjacent_find(members.begin(), members.end(), [gap](Rank a, Rank b) {
                            return b - a != gap;
                          }) == members.end();
  return gap >= 0 && equal_gaps ? 3.0 * sizeof(int) : std::numeric_limits<double>::infinity();
}

double open_mpi_sporadic(std::span<const Rank> members) {
  std::size_t runs = 0;
  for (std::size_t i = 0; i < members.size(); ++i)
    if (i == 0 || members[i] != members[i - 1] + 1) ++runs;
  return 2.0 * sizeof(int) * static_cast<double>(runs);
}

double open_mpi_bitmap(std::span<const Rank> members, Rank world) {
  return std::is_sorted(members.begin(), members.end()) ? std::ceil(world / 8.0)
                                                        : std::numeric_limits<double>::infinity();
}

double open_mpi_bytes(std::span<const Rank> members, Rank world) {
  if (members.empty()) return 0;
  const double dense = sizeof(void*) * static_cast<double>(members.size());
  return std::min({dense, open_mpi_strided(members), open_mpi_sporadic(members),
                   open_mpi_bitmap(members, world)});
}

double log2_factorial(double n) {
  return std::lgamma(n + 1) / std::log(2.0);
}

// log2 C(W, n) bits pick the set; a group that is not in increasing order also needs one of the
// n! orders, log2 n! bits.
double bound_bytes(std::span<const Rank> members, Rank world) {
  const double n = static_cast<double>(members.size());
  double bits = log2_factorial(world) - log2_factorial(n) - log2_factorial(world - n);
  if (!std::is_sorted(members.begin(), members.end())) bits += log2_factorial(n);
  return std::max(0.0, bits) / 8.0;
}

}  // namespace

Baselines compute_baselines(std::span<const Rank> members, Rank world) {
  return {4.0 * static_cast<double>(members.size()), mpich_bytes(members),
          open_mpi_bytes(members, world), bound_bytes(members, world)};
}

}  // namespace scomm::bench
