#include "baselines.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "scomm/group/detect.hpp"
#include "scomm/group/ranges_map.hpp"

namespace scomm::bench {
namespace {

// MPICH CH4's rank map (MPIDI_rank_map_t): a mode plus offset/stride/blocksize fields, or a lookup
// table of 64-bit lpids (MPIR_Lpid) when no pattern fits.
double mpich_bytes(std::span<const group::Rank> members) {
  const auto box = group::detect_box(members);
  const bool pattern = box && (box->ndims() <= 1 || box->kind() == group::BoxKind::kStrideBlock);
  return pattern ? 32.0 : 32.0 + 8.0 * static_cast<double>(members.size());
}

// Open MPI's ompi_group_calc_{plist,strided,sporadic,bitmap}: a proc pointer per member; three
// ints for one stride; an (first, length) pair of ints per run of consecutive ranks; one bit per
// rank of the parent (here the world), usable only for ascending groups.
double open_mpi_bytes(std::span<const group::Rank> members, group::Rank world) {
  const double n = static_cast<double>(members.size());
  double best = 8.0 * n;
  const auto box = group::detect_box(members);
  if (box && box->ndims() <= 1) best = std::min(best, 12.0);
  std::size_t runs = 0;
  for (std::size_t i = 0; i < members.size(); ++i)
    if (i == 0 || members[i] != members[i - 1] + 1) ++runs;
  best = std::min(best, 8.0 * static_cast<double>(runs));
  if (std::is_sorted(members.begin(), members.end())) best = std::min(best, std::ceil(world / 8.0));
  return best;
}

double log2_factorial(double n) {
  return std::lgamma(n + 1) / std::log(2.0);
}

double bound_bytes(std::span<const group::Rank> members, group::Rank world) {
  const double n = static_cast<double>(members.size());
  double bits = log2_factorial(world) - log2_factorial(n) - log2_factorial(world - n);
  if (!std::is_sorted(members.begin(), members.end())) bits += log2_factorial(n);
  return bits / 8.0;
}

}  // namespace

Baselines compute_baselines(std::span<const group::Rank> members, group::Rank world) {
  return {4.0 * static_cast<double>(members.size()), mpich_bytes(members),
          open_mpi_bytes(members, world), bound_bytes(members, world)};
}

}  // namespace scomm::bench
