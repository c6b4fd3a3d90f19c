#include "workloads.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <random>

namespace scomm::bench {
namespace {

std::vector<Rank> progression(Rank first, Rank end, Rank stride) {
  std::vector<Rank> out;
  for (std::int64_t r = first; stride > 0 ? r < end : r > end; r += stride)
    out.push_back(static_cast<Rank>(r));
  return out;
}

// n random members of [0, world) in random order (all of them when n >= world).
std::vector<Rank> random_subset(Rank world, Rank n, std::mt19937& rng) {
  n = std::min(n, world);
  std::vector<Rank> all(static_cast<std::size_t>(world));
  std::iota(all.begin(), all.end(), 0);
  for (Rank i = 0; i < n; ++i)  // partial Fisher-Yates
    std::swap(all[static_cast<std::size_t>(i)],
              all[static_cast<std::size_t>(i + static_cast<Rank>(rng() % (world - i)))]);
  all.resize(static_cast<std::size_t>(n));
  return all;
}

std::vector<Rank> sorted(std::vector<Rank> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Ten ranges of `length` spread over the world, each permuted inside (thesis 13-14).
std::vector<Rank> ranges_permuted_inside(Rank world, Rank length, std::mt19937& rng) {
  length = std::min(length, world / 10);
  std::vector<Rank> out;
  for (Rank k = 0; k < 10; ++k) {
    auto range = progression(k * (world / 10), k * (world / 10) + length, 1);
    std::shuffle(range.begin(), range.end(), rng);
    out.insert(out.end(), range.begin(), range.end());
  }
  return out;
}

// Members of a cube of side s in `dims` dimensions whose listed coordinates are 0.
std::vector<Rank> cube_slice(Rank side, int dims, std::vector<int> zero_dims) {
  std::vector<Rank> out;
  const auto total = static_cast<Rank>(std::pow(side, dims));
  for (Rank r = 0; r < total; ++r) {
    bool keep = true;
    for (int d : zero_dims)
      keep = keep && (r / static_cast<Rank>(std::pow(side, dims - 1 - d))) % side == 0;
    if (keep) out.push_back(r);
  }
  return out;
}

// Union of `count` random ranges, in increasing order (class C) or decreasing (class E).
std::vector<Rank> random_ranges(Rank world, int count, bool decreasing, std::mt19937& rng) {
  std::vector<Rank> starts = sorted(random_subset(world, 2 * count, rng));
  std::vector<Rank> out;
  for (int k = 0; k < count; ++k) {
    const auto range = progression(starts[2 * k], starts[2 * k + 1], 1);
    out.insert(decreasing ? out.begin() : out.end(), range.begin(), range.end());
  }
  return out;
}

// Union of random faces of the hypercube of `world` = 2^d nodes; a face fixes `fixed` random
// coordinate bits to random values.
std::vector<Rank> hypercube_faces(Rank world, int faces, int fixed, std::mt19937& rng) {
  const int d = static_cast<int>(std::log2(world));
  std::vector<bool> member(static_cast<std::size_t>(world), false);
  for (int f = 0; f < faces; ++f) {
    Rank mask = 0;
    while (std::popcount(static_cast<unsigned>(mask)) < fixed)
      mask |= Rank{1} << (rng() % static_cast<unsigned>(d));
    const Rank value = static_cast<Rank>(rng()) & mask;
    for (Rank r = 0; r < world; ++r)
      if ((r & mask) == value) member[static_cast<std::size_t>(r)] = true;
  }
  std::vector<Rank> out;
  for (Rank r = 0; r < world; ++r)
    if (member[static_cast<std::size_t>(r)]) out.push_back(r);
  return out;
}

}  // namespace

std::vector<Workload> thesis_workloads(Rank world) {
  std::mt19937 rng(2011);
  std::vector<Workload> w;
  w.push_back({"1 evens", world, progression(0, world, 2)});
  w.push_back({"2 y=81x+11453", world, progression(11453 + 81, world, 81)});
  const Rank side = static_cast<Rank>(std::floor(std::pow(world, 1.0 / 6) + 1e-9));
  w.push_back(
      {"3 cube [0,*,*,0,*,*] side " + std::to_string(side), world, cube_slice(side, 6, {0, 3})});
  std::vector<Rank> alternating;
  for (Rank start = 0; start < world; start += 200)
    for (Rank k = start; k < std::min(world, start + 100); ++k) alternating.push_back(k);
  w.push_back({"4 alternating ranges of 100", world, alternating});
  for (auto [id, m] : {std::pair{5, 3}, std::pair{6, 5}, std::pair{7, 7}})
    w.push_back({std::to_string(id) + " multiples of " + std::to_string(m), world,
                 progression(0, world, m)});
  w.push_back({"8 5,000 random ordered", world, sorted(random_subset(world, 5000, rng))});
  w.push_back({"9 50,000 random ordered", world, sorted(random_subset(world, 50000, rng))});
  w.push_back({"10 random permutation of 10,000", world, random_subset(world, 10000, rng)});
  w.push_back({"11 random permutation of 20,000", world, random_subset(world, 20000, rng)});
  w.push_back({"12 random permutation of 100,000", world, random_subset(world, 100000, rng)});
  w.push_back(
      {"13 ten ranges of 1,000 permuted inside", world, ranges_permuted_inside(world, 1000, rng)});
  w.push_back({"14 ten ranges of 10,000 permuted inside", world,
               ranges_permuted_inside(world, 10000, rng)});
  return w;
}

std::vector<Workload> thesis_classes(Rank world) {
  std::mt19937 rng(1000000);
  std::vector<Workload> w;
  for (Rank n : {1000, 30000, 300000})
    w.push_back({"A random " + std::to_string(n), world, random_subset(world, n, rng)});
  for (int k = 0; k < 3; ++k) {
    const Rank first = static_cast<Rank>(rng() % 1000);
    const Rank stride = static_cast<Rank>(2 + rng() % 60);
    w.push_back({"B stride " + std::to_string(stride), world,
                 progression(first, world - static_cast<Rank>(rng() % 1000), stride)});
  }
  for (int count : {10, 300})
    w.push_back({"C " + std::to_string(count) + " ranges ascending", world,
                 random_ranges(world, count, false, rng)});
  const Rank cube = 1 << static_cast<int>(std::log2(world));
  for (int faces : {1, 4})
    w.push_back({"D " + std::to_string(faces) + " hypercube faces", cube,
                 hypercube_faces(cube, faces, 6, rng)});
  for (int count : {10, 300})
    w.push_back({"E " + std::to_string(count) + " ranges descending", world,
                 random_ranges(world, count, true, rng)});
  return w;
}

std::vector<Workload> thesis_cases() {
  std::vector<Workload> w;
  const Rank n = 1024;
  w.push_back({"1024x1024 row 517", n * n, progression(517 * n, 518 * n, 1)});
  w.push_back({"1024x1024 column 517", n * n, progression(517, n * n, n)});
  std::vector<Rank> transpose;
  for (Rank r = 0; r < n * n; ++r) transpose.push_back((r % n) * n + r / n);
  w.push_back({"transpose of 1024x1024", n * n, transpose});
  std::vector<Rank> plane;  // 128 x 128 x 64 mesh (2^20), the plane y = 37
  for (Rank z = 0; z < 64; ++z)
    for (Rank x = 0; x < 128; ++x) plane.push_back(x + 128 * 37 + 128 * 128 * z);
  w.push_back({"2^20 3-D mesh plane y=37", n * n, plane});
  std::mt19937 rng(5);
  std::binomial_distribution<Rank> degree(n * n - 1, 0.005);
  std::vector<Rank> neighbours = sorted(random_subset(n * n, degree(rng), rng));
  w.push_back({"G(2^20,0.005) neighbourhood", n * n, neighbours});
  return w;
}

std::vector<Workload> avrankmap_workloads(Rank world) {
  std::vector<Workload> w;
  w.push_back({"first half", world, progression(0, world / 2, 1)});
  w.push_back({"second half (offset)", world, progression(world / 2, world, 1)});
  w.push_back({"even half (stride)", world, progression(0, world, 2)});
  w.push_back({"reversed even half", world, progression(world - 2, -1, -2)});
  std::vector<Rank> generation = progression(0, world, 1);
  for (int g = 1; g <= 4; ++g) {
    std::vector<Rank> odd;
    for (std::size_t i = 1; i < generation.size(); i += 2) odd.push_back(generation[i]);
    generation = odd;
    w.push_back({"generation " + std::to_string(g) + " odd split", world, generation});
  }
  return w;
}

}  // namespace scomm::bench
