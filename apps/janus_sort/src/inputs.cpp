// Input generators: deterministic per (seed, global offset), so any rank count gives one input.
#include "janus_sort/inputs.hpp"

#include <random>
#include <stdexcept>

namespace janus {

const char* name_of(Distribution distribution) {
  switch (distribution) {
    case Distribution::kRandom:
      return "random";
    case Distribution::kSorted:
      return "sorted";
    case Distribution::kReverse:
      return "reverse";
    case Distribution::kEqual:
      return "equal";
    case Distribution::kSkewed:
      return "skewed";
  }
  return "?";
}

Distribution distribution_named(const std::string& name) {
  for (const auto d : {Distribution::kRandom, Distribution::kSorted, Distribution::kReverse,
                       Distribution::kEqual, Distribution::kSkewed})
    if (name == name_of(d)) return d;
  throw std::invalid_argument("unknown input distribution '" + name + "'");
}

template <class T>
std::vector<T> make_input(Distribution distribution, std::uint64_t count, std::uint64_t offset,
                          std::uint64_t total, std::uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ULL + offset);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::exponential_distribution<double> exponential(1.0);
  std::vector<T> data(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t index = offset + i;
    double value = 0;
    switch (distribution) {
      case Distribution::kRandom:
        value = unit(rng) * 1e9;
        break;
      case Distribution::kSorted:
        value = static_cast<double>(index);
        break;
      case Distribution::kReverse:
        value = static_cast<double>(total - index);
        break;
      case Distribution::kEqual:
        value = 42;
        break;
      case Distribution::kSkewed:
        value = unit(rng) < 0.9 ? 7 : exponential(rng) * 1e3;
        break;
    }
    data[i] = static_cast<T>(value);
  }
  return data;
}

template std::vector<int> make_input<int>(Distribution, std::uint64_t, std::uint64_t, std::uint64_t,
                                          std::uint64_t);
template std::vector<long long> make_input<long long>(Distribution, std::uint64_t, std::uint64_t,
                                                      std::uint64_t, std::uint64_t);
template std::vector<double> make_input<double>(Distribution, std::uint64_t, std::uint64_t,
                                                std::uint64_t, std::uint64_t);

}  // namespace janus
