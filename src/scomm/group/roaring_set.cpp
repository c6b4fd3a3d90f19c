#include "scomm/group/roaring_set.hpp"

#include <algorithm>
#include <cmath>

namespace scomm::group {

RoaringSet::RoaringSet(std::span<const Rank> sorted)
    : n_(static_cast<Rank>(sorted.size())),
      bitmap_(roaring_bitmap_of_ptr(sorted.size(),
                                    reinterpret_cast<const std::uint32_t*>(sorted.data()))) {
  roaring_bitmap_run_optimize(bitmap_);
  roaring_bitmap_shrink_to_fit(bitmap_);
}

Rank RoaringSet::select(Rank i) const noexcept {
  std::uint32_t member = 0;
  roaring_bitmap_select(bitmap_, static_cast<std::uint32_t>(i), &member);
  return static_cast<Rank>(member);
}

Rank RoaringSet::rank(Rank world) const noexcept {
  if (world < 0 || !roaring_bitmap_contains(bitmap_, static_cast<std::uint32_t>(world)))
    return kUndefined;
  return static_cast<Rank>(roaring_bitmap_rank(bitmap_, static_cast<std::uint32_t>(world)) - 1);
}

// An iterator on the stack (no allocation), moved to the first member wanted, read in bulk.
void RoaringSet::decode(Rank first, std::span<Rank> out) const noexcept {
  if (out.empty()) return;
  roaring_uint32_iterator_t it;
  roaring_init_iterator(bitmap_, &it);
  roaring_move_uint32_iterator_equalorlarger(&it, static_cast<std::uint32_t>(select(first)));
  roaring_read_uint32_iterator(&it, reinterpret_cast<std::uint32_t*>(out.data()),
                               static_cast<std::uint32_t>(out.size()));
}

namespace {

// What one container holds in memory: its header and its allocated payload.
std::size_t container_bytes(const void* container, std::uint8_t type) {
  container = container_unwrap_shared(container, &type);
  switch (type) {
    case BITSET_CONTAINER_TYPE_CODE:
      return sizeof(bitset_container_t) + BITSET_CONTAINER_SIZE_IN_WORDS * sizeof(std::uint64_t);
    case ARRAY_CONTAINER_TYPE_CODE: {
      const auto* array = static_cast<const array_container_t*>(container);
      return sizeof(*array) + static_cast<std::size_t>(array->capacity) * sizeof(std::uint16_t);
    }
    default: {
      const auto* run = static_cast<const run_container_t*>(container);
      return sizeof(*run) + static_cast<std::size_t>(run->capacity) * sizeof(rle16_t);
    }
  }
}

}  // namespace

// True memory, not roaring_bitmap_size_in_bytes (the serialized size): the bitmap header, the
// parallel key/type/pointer arrays at their allocated capacity, and every container.
std::size_t RoaringSet::bytes() const noexcept {
  const roaring_array_t& containers = bitmap_->high_low_container;
  std::size_t total = sizeof(*this) + sizeof(roaring_bitmap_t) +
                      static_cast<std::size_t>(containers.allocation_size) *
                          (sizeof(void*) + sizeof(std::uint16_t) + sizeof(std::uint8_t));
  for (std::int32_t k = 0; k < containers.size; ++k)
    total += container_bytes(containers.containers[k], containers.typecodes[k]);
  return total;
}

// The kind's cost model and constructor, named apart from the other kinds' (unity builds).
namespace roaring_set_kind {
namespace {

// Per 2^16-rank chunk: the smaller of an array (2 B per member), a bitmap (8 KiB) and runs (4 B
// per run), with members and runs spread evenly over [0, W); the last chunk may be partial.
double chunk_bytes(double members, double runs) {
  return std::min({2.0 * members, 8192.0, 4.0 * runs + 2}) + 16;
}

std::size_t estimate_bytes(const SetStats& s) {
  const double universe = std::max(1, s.universe);
  const double full_chunks = std::floor(universe / 65536.0);
  const double tail = (universe - 65536.0 * full_chunks) / universe;
  const double per_full = 65536.0 / universe;
  double bytes = full_chunks * chunk_bytes(s.n * per_full, s.runs * per_full);
  if (tail > 0) bytes += chunk_bytes(s.n * tail, s.runs * tail);
  return sizeof(RoaringSet) + static_cast<std::size_t>(bytes) + 64;
}
// select and rank sum the cardinalities of earlier containers, then work inside one: a binary
// search in an array container, a walk over a run container's runs, a scan of up to 1,024 words
// in a bitmap container (measured ~300-700 ns).
double estimate_ns(const SetStats& s) {
  const double per_chunk = 65536.0 / std::max(1, s.universe);
  const double members = s.n * per_chunk, runs = s.runs * per_chunk;
  const double chunks = std::ceil(std::max(1, s.universe) / 65536.0);
  const double array = 2.0 * members, bitmap = 8192.0, run = 4.0 * runs + 2;
  double inside = 30.0;
  if (run < array && run < bitmap) {
    inside = 5.0 * runs;  // measured: ~110 ns select with ~20 runs per container
  } else if (bitmap < array) {
    inside = 1000.0;
  }
  return 2.0 * (chunks * 1.5 + inside);
}
SetPtr build(std::span<const Rank> sorted, Rank) {
  return std::make_unique<RoaringSet>(sorted);
}

}  // namespace
}  // namespace roaring_set_kind

const SetKind kRoaringSetKind{"roaring", roaring_set_kind::estimate_bytes,
                              roaring_set_kind::estimate_ns, roaring_set_kind::build};

}  // namespace scomm::group
