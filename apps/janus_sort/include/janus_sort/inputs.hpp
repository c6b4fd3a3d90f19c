// Test and benchmark inputs for distributed sorts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace janus {

enum class Distribution { kRandom, kSorted, kReverse, kEqual, kSkewed };

// The name used on command lines ("random", "sorted", "reverse", "equal", "skewed").
const char* name_of(Distribution distribution);
// Throws std::invalid_argument for an unknown name.
Distribution distribution_named(const std::string& name);

// `count` elements of a rank whose first element is the global element `offset` of `total`:
// random (uniform), sorted / reverse (by global index), equal (one value), skewed (90% one
// value, the rest exponentially distributed).
template <class T>
std::vector<T> make_input(Distribution distribution, std::uint64_t count, std::uint64_t offset,
                          std::uint64_t total, std::uint64_t seed);

}  // namespace janus
