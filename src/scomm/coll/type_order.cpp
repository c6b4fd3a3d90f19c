#include "scomm/coll/type_order.hpp"

#include <limits>
#include <vector>

namespace scomm::coll {

#if defined(SMPI_H)
bool runs_in_pack_order(MPI_Datatype) {
  return true;
}
#else
namespace {

constexpr int kDeepest = 8;

bool in_order(MPI_Datatype type, int depth);

// A type's constructor and arguments; the derived types among them, which MPI made for the
// caller, are freed with it.
struct Contents {
  explicit Contents(MPI_Datatype type) {
    int integers = 0, addresses = 0, types = 0;
    MPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner);
    if (combiner == MPI_COMBINER_NAMED) return;
    ints.resize(static_cast<std::size_t>(integers));
    addrs.resize(static_cast<std::size_t>(addresses));
    inner.resize(static_cast<std::size_t>(types));
    MPI_Type_get_contents(type, integers, addresses, types, ints.data(), addrs.data(),
                          inner.data());
  }
  ~Contents() {
    for (MPI_Datatype& t : inner) {
      int i = 0, a = 0, d = 0, kind = MPI_COMBINER_NAMED;
      MPI_Type_get_envelope(t, &i, &a, &d, &kind);
      if (kind != MPI_COMBINER_NAMED) MPI_Type_free(&t);
    }
  }
  Contents(const Contents&) = delete;
  Contents& operator=(const Contents&) = delete;

  int combiner = MPI_COMBINER_NAMED;
  std::vector<int> ints;
  std::vector<MPI_Aint> addrs;
  std::vector<MPI_Datatype> inner;
};

// Runs of elements of one type, laid down in pack order: each must start at or after the end of
// the one before.
class Runs {
 public:
  // `count` elements of `type` (in order itself), the first at byte `offset`, each `step` bytes
  // after the one before.
  bool add(MPI_Aint offset, MPI_Aint count, MPI_Aint step, MPI_Datatype type) {
    if (count == 0) return true;
    MPI_Aint true_lb = 0, true_extent = 0;
    MPI_Type_get_true_extent(type, &true_lb, &true_extent);
    if (count > 1 && step < true_extent) return false;  // elements overlap, or run backwards
    if (offset + true_lb < end_) return false;
    end_ = offset + (count - 1) * step + true_lb + true_extent;
    return true;
  }

 private:
  MPI_Aint end_ = std::numeric_limits<MPI_Aint>::min();
};

MPI_Aint extent_of(MPI_Datatype type) {
  MPI_Aint lb = 0, extent = 0;
  MPI_Type_get_extent(type, &lb, &extent);
  return extent;
}

// Blocks of one inner type at displacements in elements (`scale` its extent) or in bytes (1).
bool blocks_in_order(const std::vector<MPI_Aint>& displacements, const std::vector<int>& lengths,
                     MPI_Datatype type, bool in_elements, int depth) {
  if (!in_order(type, depth + 1)) return false;
  const MPI_Aint extent = extent_of(type), scale = in_elements ? extent : 1;
  Runs runs;
  for (std::size_t i = 0; i < displacements.size(); ++i)
    if (!runs.add(displacements[i] * scale, lengths[i], extent, type)) return false;
  return true;
}

// count blocks of `length` elements each, `stride` bytes apart.
bool vector_in_order(MPI_Aint count, MPI_Aint length, MPI_Aint stride, MPI_Datatype type,
                     int depth) {
  if (!in_order(type, depth + 1)) return false;
  const MPI_Aint extent = extent_of(type);
  Runs block;
  if (!block.add(0, length, extent, type)) return false;
  if (count <= 1 || length == 0) return true;
  MPI_Aint true_lb = 0, true_extent = 0;
  MPI_Type_get_true_extent(type, &true_lb, &true_extent);
  return stride >= (length - 1) * extent + true_extent;  // each block after the one before
}

bool in_order(MPI_Datatype type, int depth) {
  if (depth > kDeepest) return false;
  const Contents c(type);
  const std::vector<int>& n = c.ints;
  switch (c.combiner) {
    case MPI_COMBINER_NAMED:
      return true;
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:
      return in_order(c.inner[0], depth + 1);
    case MPI_COMBINER_CONTIGUOUS:
      return vector_in_order(1, n[0], 0, c.inner[0], depth);
    case MPI_COMBINER_VECTOR:
      return vector_in_order(n[0], n[1], n[2] * extent_of(c.inner[0]), c.inner[0], depth);
    case MPI_COMBINER_HVECTOR:
      return vector_in_order(n[0], n[1], c.addrs[0], c.inner[0], depth);
    case MPI_COMBINER_INDEXED: {
      const auto count = static_cast<std::size_t>(n[0]);
      return blocks_in_order(
          std::vector<MPI_Aint>(n.begin() + 1 + count, n.begin() + 1 + 2 * count),
          std::vector<int>(n.begin() + 1, n.begin() + 1 + count), c.inner[0], true, depth);
    }
    case MPI_COMBINER_HINDEXED:
      return blocks_in_order(c.addrs, std::vector<int>(n.begin() + 1, n.end()), c.inner[0], false,
                             depth);
    case MPI_COMBINER_INDEXED_BLOCK:
      return blocks_in_order(std::vector<MPI_Aint>(n.begin() + 2, n.end()),
                             std::vector<int>(static_cast<std::size_t>(n[0]), n[1]), c.inner[0],
                             true, depth);
    case MPI_COMBINER_HINDEXED_BLOCK:
      return blocks_in_order(c.addrs, std::vector<int>(static_cast<std::size_t>(n[0]), n[1]),
                             c.inner[0], false, depth);
    case MPI_COMBINER_STRUCT: {
      Runs runs;
      for (std::size_t i = 0; i < c.inner.size(); ++i)
        if (!in_order(c.inner[i], depth + 1) ||
            !runs.add(c.addrs[i], n[i + 1], extent_of(c.inner[i]), c.inner[i]))
          return false;
      return true;
    }
    default:  // subarrays, distributed arrays, Fortran's: not followed
      return false;
  }
}

}  // namespace

bool runs_in_pack_order(MPI_Datatype type) {
  return in_order(type, 0);
}
#endif

}  // namespace scomm::coll
