#include "workloads.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <random>
#include <utility>

namespace scomm::bench {
namespace {

std::string with_commas(std::int64_t value) {
  std::string digits = std::to_string(value), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

Rank integer_power(Rank base, int exponent) {
  Rank result = 1;
  for (int i = 0; i < exponent; ++i) result *= base;
  return result;
}

// first, first + stride, ... while before `end` (exclusive); stride may be negative.
std::vector<Rank> progression(Rank first, Rank end, Rank stride) {
  std::vector<Rank> out;
  for (std::int64_t r = first; stride > 0 ? r < end : r > end; r += stride)
    out.push_back(static_cast<Rank>(r));
  return out;
}

Rank random_below(Rank bound, std::mt19937& rng) {
  return static_cast<Rank>(rng() % static_cast<std::uint32_t>(bound));
}

// n random members of [0, world) in random order (all of them when n >= world).
std::vector<Rank> random_subset(Rank world, Rank n, std::mt19937& rng) {
  n = std::min(n, world);
  std::vector<Rank> all(static_cast<std::size_t>(world));
  std::iota(all.begin(), all.end(), 0);
  for (Rank i = 0; i < n; ++i)  // partial Fisher-Yates
    std::swap(all[static_cast<std::size_t>(i)],
              all[static_cast<std::size_t>(i + random_below(world - i, rng))]);
  all.resize(static_cast<std::size_t>(n));
  return all;
}

std::vector<Rank> sorted(std::vector<Rank> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Ten ranges of `length` spread evenly over the world, each permuted inside (thesis 13-14).
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

// Members [a,b,c,d,e,f] of the six-dimensional cube of side s with a = d = 0, ascending.
std::vector<Rank> cube_slice(Rank side) {
  std::vector<Rank> out;
  for (Rank b = 0; b < side; ++b)
    for (Rank c = 0; c < side; ++c)
      for (Rank ef = 0; ef < side * side; ++ef)  // e * side + f: one run of side^2
        out.push_back(b * integer_power(side, 4) + c * integer_power(side, 3) + ef);
  return out;
}

// The thesis's cube has side 10 (a world of 10^6; the slice has table 6.1's 10,000 members and
// its ranks stay below 99,100, inside W = 200,000). Smaller worlds get the largest side whose
// slice fits.
Rank cube_side(Rank world) {
  Rank side = 10;
  while (side > 2 && cube_slice(side).back() >= world) --side;
  return side;
}

// Union of `count` disjoint random ranges; ranges in increasing order (class C) or decreasing
// (class E), each range increasing inside.
std::vector<Rank> random_ranges(Rank world, int count, bool decreasing, std::mt19937& rng) {
  const std::vector<Rank> bounds = sorted(random_subset(world, 2 * count, rng));
  std::vector<Rank> out;
  for (std::size_t k = 0; k + 1 < bounds.size(); k += 2) {
    const auto range = progression(bounds[k], bounds[k + 1], 1);
    out.insert(decreasing ? out.begin() : out.end(), range.begin(), range.end());
  }
  return out;
}

// Class D: union, in increasing order, of random faces of the `dims`-dimensional cube of side
// `side`; each of the 2 * dims faces (one coordinate fixed to 0 or side - 1) is taken with
// probability 1/2, at least one.
std::vector<Rank> cube_faces(Rank side, int dims, std::mt19937& rng) {
  std::vector<std::pair<int, Rank>> faces;  // (dimension, fixed coordinate)
  while (faces.empty())
    for (int d = 0; d < dims; ++d)
      for (Rank coordinate : {Rank{0}, side - 1})
        if (rng() % 2 == 1) faces.emplace_back(d, coordinate);
  auto on_a_face = [&](Rank r) {
    return std::ranges::any_of(faces, [&](const auto& face) {
      return r / integer_power(side, dims - 1 - face.first) % side == face.second;
    });
  };
  std::vector<Rank> out;
  for (Rank r = 0; r < integer_power(side, dims); ++r)
    if (on_a_face(r)) out.push_back(r);
  return out;
}

// Group rank r = (i, j) in column-major order of a rows x cols matrix -> world rank i*cols + j.
std::vector<Rank> transpose(Rank rows, Rank cols) {
  std::vector<Rank> out;
  for (Rank r = 0; r < rows * cols; ++r) out.push_back(r % rows * cols + r / rows);
  return out;
}

// The plane y = y0 of an a x a x (world / a^2) mesh, a = 2^ceil(log2(world) / 3) (128 x 128 x 64
// for 2^20: a sub-mesh of 2^13, thesis 4.1.2.3), in increasing order.
std::vector<Rank> mesh_plane(Rank world) {
  const int bits = std::bit_width(static_cast<std::uint32_t>(world)) - 1;
  const Rank a = Rank{1} << ((bits + 2) / 3);
  const Rank y0 = 37 % a;
  std::vector<Rank> out;
  for (Rank z = 0; z < world / (a * a); ++z)
    for (Rank x = 0; x < a; ++x) out.push_back(x + a * y0 + a * a * z);
  return out;
}

// Thesis 4.3.2.1: the neighbours of one node of an Erdos-Renyi graph G(world, p), every node at a
// random point of the unit square, ordered by distance to the node.
std::vector<Rank> graph_neighbourhood(Rank world, double p, std::mt19937& rng) {
  const Rank node = world / 3;
  std::binomial_distribution<Rank> degree(world - 1, p);
  std::vector<Rank> neighbours = random_subset(world - 1, degree(rng), rng);
  for (Rank& v : neighbours) v += v >= node ? 1 : 0;
  std::uniform_real_distribution<double> coordinate(0, 1);
  const double x0 = coordinate(rng), y0 = coordinate(rng);
  std::vector<std::pair<double, Rank>> by_distance;
  for (Rank v : neighbours)
    by_distance.emplace_back(std::hypot(coordinate(rng) - x0, coordinate(rng) - y0), v);
  std::sort(by_distance.begin(), by_distance.end());
  std::vector<Rank> out;
  for (const auto& entry : by_distance) out.push_back(entry.second);
  return out;
}

// `n` of a workload defined at `reference_world`, scaled to `world` (the same n at full size).
Rank scaled(Rank n, Rank world, Rank reference_world) {
  return std::max<Rank>(1, static_cast<Rank>(std::int64_t{n} * world / reference_world));
}

std::vector<Rank> odd_positions(const std::vector<Rank>& v) {
  std::vector<Rank> out;
  for (std::size_t i = 1; i < v.size(); i += 2) out.push_back(v[i]);
  return out;
}

}  // namespace

std::vector<Workload> thesis_workloads(Rank world) {
  std::mt19937 rng(2011);
  const Rank intercept = static_cast<Rank>(11453LL * world / 200000);
  const Rank side = cube_side(world);
  std::vector<Rank> alternating;
  for (Rank start = 0; start < world; start += 200)
    for (Rank k = start; k < std::min(world, start + 100); ++k) alternating.push_back(k);
  std::vector<Workload> w;
  w.push_back({"1 evens", world, progression(0, world, 2), true});
  // x = 1, 2, ...: table 6.1's 2,327 members
  w.push_back({"2 y=81x+" + std::to_string(intercept), world,
               progression(intercept + 81, world, 81), true});
  w.push_back(
      {"3 cube slice [0,*,*,0,*,*] side " + std::to_string(side), world, cube_slice(side), true});
  w.push_back({"4 alternating ranges of 100", world, alternating, true});
  for (auto [id, m] : {std::pair{5, 3}, std::pair{6, 5}, std::pair{7, 7}})
    w.push_back({std::to_string(id) + " multiples of " + std::to_string(m), world,
                 progression(0, world, m), true});
  for (auto [id, size] : {std::pair{8, 5000}, std::pair{9, 50000}}) {
    const Rank n = scaled(size, world, 200000);
    w.push_back({std::to_string(id) + " " + with_commas(n) + " random ordered", world,
                 sorted(random_subset(world, n, rng))});
  }
  for (auto [id, size] : {std::pair{10, 10000}, std::pair{11, 20000}, std::pair{12, 100000}}) {
    const Rank n = scaled(size, world, 200000);
    w.push_back({std::to_string(id) + " random permutation of " + with_commas(n), world,
                 random_subset(world, n, rng)});
  }
  for (auto [id, size] : {std::pair{13, 1000}, std::pair{14, 10000}}) {
    const Rank length = scaled(size, world, 200000);
    w.push_back({std::to_string(id) + " ten ranges of " + with_commas(length) + " permuted inside",
                 world, ranges_permuted_inside(world, length, rng)});
  }
  return w;
}

std::vector<Workload> thesis_classes(Rank world) {
  std::mt19937 rng(1000000);
  std::vector<Workload> w;
  for (Rank size : {1000, 30000, 300000}) {
    const Rank n = scaled(size, world, 1000000);
    w.push_back({"A " + with_commas(n) + " random, ascending", world,
                 sorted(random_subset(world, n, rng))});
  }
  for (int k = 0; k < 3; ++k) {
    const Rank first = random_below(world / 2, rng);
    const Rank end = world / 2 + random_below(world / 2, rng);
    const Rank stride = 2 + random_below(999, rng);
    w.push_back({"B stride " + std::to_string(stride) + " from " + with_commas(first), world,
                 progression(first, end, stride), true});
  }
  for (int count : {10, 300})
    w.push_back({"C " + std::to_string(count) + " random ranges, ascending", world,
                 random_ranges(world, count, false, rng)});
  for (int dims : {2, 3, 6}) {
    const auto side = static_cast<Rank>(std::lround(std::pow(world, 1.0 / dims)));
    auto members = cube_faces(side, dims, rng);
    w.push_back({"D faces of a " + std::to_string(dims) + "-D cube of side " + std::to_string(side),
                 integer_power(side, dims), std::move(members)});
  }
  for (int count : {10, 300})
    w.push_back({"E " + std::to_string(count) + " random ranges, descending", world,
                 random_ranges(world, count, true, rng)});
  return w;
}

std::vector<Workload> thesis_cases(Rank side) {
  const Rank world = side * side;
  const std::string matrix = std::to_string(side) + "x" + std::to_string(side);
  std::mt19937 rng(5);
  std::vector<Workload> w;
  w.push_back({matrix + " row " + std::to_string(side - 1), world,
               progression((side - 1) * side, world, 1), true});
  w.push_back({matrix + " column 1", world, progression(1, world, side), true});
  w.push_back({"transpose of " + matrix, world, transpose(side, side), true});
  w.push_back({"transpose of " + std::to_string(side / 4) + "x" + std::to_string(side * 4), world,
               transpose(side / 4, side * 4), true});
  w.push_back({"3-D mesh plane of " + with_commas(world), world, mesh_plane(world), true});
  w.push_back({"G(" + with_commas(world) + ",0.005) neighbourhood", world,
               graph_neighbourhood(world, 0.005, rng)});
  return w;
}

std::vector<Workload> avrankmap_workloads(Rank world) {
  std::vector<Workload> w;
  w.push_back({"first half (direct)", world, progression(0, world / 2, 1), true});
  w.push_back({"second half (offset)", world, progression(world / 2, world, 1), true});
  w.push_back({"even half (stride)", world, progression(0, world, 2), true});
  w.push_back({"odd half (offset + stride)", world, progression(1, world, 2), true});
  w.push_back(
      {"reversed even half (reversed stride)", world, progression(world - 2, -1, -2), true});
  std::vector<Rank> generation = progression(0, world, 1);
  for (int g = 1; g <= 4; ++g) {
    generation = odd_positions(generation);
    w.push_back({"odd/even split generation " + std::to_string(g), world, generation, true});
  }
  return w;
}

void for_each_graph_neighbourhood(Rank world, double p, int count, unsigned seed,
                                  const std::function<void(std::vector<Rank>&)>& visit) {
  std::mt19937 rng(seed);
  for (int i = 0; i < count; ++i) {
    std::vector<Rank> neighbours = graph_neighbourhood(world, p, rng);
    visit(neighbours);
  }
}

}  // namespace scomm::bench
