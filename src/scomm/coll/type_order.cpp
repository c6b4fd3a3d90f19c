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

// Where an inner type's elements lie: asked of MPI once per inner type, not once per block.
struct Bounds {
  MPI_Aint extent = 0, true_lb = 0, true_extent = 0;
};

Bounds bounds_of(MPI_Datatype type) {
  Bounds b;
  MPI_Aint lb = 0;
  MPI_Type_get_extent(type, &lb, &b.extent);
  MPI_Type_get_true_extent(type, &b.true_lb, &b.true_extent);
  return b;
}

// Runs of elements, laid down in pack order: each must start at or after the end of the one
// before.
class Runs {
 public:
  // `count` elements of a type (in order itself) with bounds `b`, the first at byte `offset`,
  // each `b.extent` bytes after the one before.
  bool add(MPI_Aint offset, MPI_Aint count, const Bounds& b) {
    if (count == 0) return true;
    if (count > 1 && b.extent < b.true_extent) return false;  // elements overlap, or run back
    if (offset + b.true_lb < end_) return false;
    end_ = offset + (count - 1) * b.extent + b.true_lb + b.true_extent;
    return true;
  }

 private:
  MPI_Aint end_ = std::numeric_limits<MPI_Aint>::min();
};

// Blocks of one inner type at displacements in elements (scaled by its extent) or in bytes.
bool blocks_in_order(const std::vector<MPI_Aint>& displacements, const std::vector<int>& lengths,
                     MPI_Datatype type, bool in_elements, int depth) {
  if (!in_order(type, depth + 1)) return false;
  const Bounds b = bounds_of(type);
  const MPI_Aint scale = in_elements ? b.extent : 1;
  Runs runs;
  for (std::size_t i = 0; i < displacements.size(); ++i)
    if (!runs.add(displacements[i] * scale, lengths[i], b)) return false;
  return true;
}

// count blocks of `length` elements each, `stride` elements (scaled by the extent) or bytes
// apart.
bool vector_in_order(MPI_Aint count, MPI_Aint length, MPI_Aint stride, bool in_elements,
                     MPI_Datatype type, int depth) {
  if (!in_order(type, depth + 1)) return false;
  const Bounds b = bounds_of(type);
  Runs block;
  if (!block.add(0, length, b)) return false;
  if (count <= 1 || length == 0) return true;
  const MPI_Aint bytes = in_elements ? stride * b.extent : stride;
  return bytes >= (length - 1) * b.extent + b.true_extent;  // each block after the one before
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
      return vector_in_order(1, n[0], 0, false, c.inner[0], depth);
    case MPI_COMBINER_VECTOR:
      return vector_in_order(n[0], n[1], n[2], true, c.inner[0], depth);
    case MPI_COMBINER_HVECTOR:
      return vector_in_order(n[0], n[1], c.addrs[0], false, c.inner[0], depth);
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
            !runs.add(c.addrs[i], n[i + 1], bounds_of(c.inner[i])))
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
