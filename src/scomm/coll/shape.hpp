// Who runs a collective: the caller's rank, the communicator's size and the root, and the rank
// arithmetic the tree algorithms share.
#pragma once

namespace scomm::coll {

struct Shape {
  int rank = 0;
  int size = 1;
  int root = 0;

  // Rank relative to the root (the root is 0), and back.
  int relative(int r) const noexcept { return (r - root + size) % size; }
  int absolute(int relative_rank) const noexcept { return (relative_rank + root) % size; }
};

// Largest power of two <= n (n >= 1).
inline int floor_pow2(int n) noexcept {
  int p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

// Smallest power of two >= n (n >= 1).
inline int ceil_pow2(int n) noexcept {
  int p = 1;
  while (p < n) p *= 2;
  return p;
}

}  // namespace scomm::coll
