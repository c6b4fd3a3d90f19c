// Checking a sorted result: globally sorted, balanced by the slice rule, a permutation.
#include <algorithm>
#include <cstring>
#include <vector>

#include "janus_sort/janus_sort.hpp"
#include "mpi_type.hpp"

namespace janus {
namespace {

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finalizer
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

template <class T>
std::uint64_t bits_of(T value) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, std::min(sizeof(T), sizeof(bits)));
  return bits;
}

// Each rank's first and last element (if any), gathered everywhere: is the sequence ordered?
template <class T>
bool ordered_across(const std::vector<T>& data, MPI_Comm comm) {
  struct Ends {
    T first, last;
    int any;
  };
  int size = 0;
  MPI_Comm_size(comm, &size);
  Ends mine{};
  if (!data.empty()) mine = {data.front(), data.back(), 1};
  std::vector<Ends> all(static_cast<std::size_t>(size));
  MPI_Allgather(&mine, static_cast<int>(sizeof(Ends)), MPI_BYTE, all.data(),
                static_cast<int>(sizeof(Ends)), MPI_BYTE, comm);
  bool ordered = true, seen = false;
  T previous{};
  for (const Ends& ends : all) {
    if (ends.any == 0) continue;
    if (seen && ends.first < previous) ordered = false;
    previous = ends.last;
    seen = true;
  }
  return ordered;
}

}  // namespace

template <class T>
std::uint64_t fingerprint(const std::vector<T>& data) {
  std::uint64_t sum = 0;
  for (const T value : data) sum += mix(bits_of(value));
  return sum;
}

template <class T>
Check check(const std::vector<T>& data, std::uint64_t input_fingerprint, std::uint64_t input_count,
            MPI_Comm comm) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // Sums over ranks: input count, output count, input and output fingerprints.
  std::uint64_t local[4] = {input_count, data.size(), input_fingerprint, fingerprint(data)};
  std::uint64_t global[4] = {};
  MPI_Allreduce(local, global, 4, MPI_UINT64_T, MPI_SUM, comm);
  const std::uint64_t n = global[0], p = static_cast<std::uint64_t>(size);
  const std::uint64_t r = static_cast<std::uint64_t>(rank);
  const bool my_balanced = data.size() == n * (r + 1) / p - n * r / p;
  const int my_sorted = std::is_sorted(data.begin(), data.end()) ? 1 : 0;
  int flags[2] = {my_sorted, my_balanced ? 1 : 0}, all[2] = {};
  MPI_Allreduce(flags, all, 2, MPI_INT, MPI_MIN, comm);
  Check result;
  result.sorted = all[0] == 1 && ordered_across(data, comm);
  result.balanced = all[1] == 1;
  result.permutation = global[0] == global[1] && global[2] == global[3];
  return result;
}

#define JANUS_CHECK_INSTANTIATE(T)                              \
  template std::uint64_t fingerprint<T>(const std::vector<T>&); \
  template Check check<T>(const std::vector<T>&, std::uint64_t, std::uint64_t, MPI_Comm);
JANUS_CHECK_INSTANTIATE(int)
JANUS_CHECK_INSTANTIATE(unsigned)
JANUS_CHECK_INSTANTIATE(long)
JANUS_CHECK_INSTANTIATE(unsigned long)
JANUS_CHECK_INSTANTIATE(long long)
JANUS_CHECK_INSTANTIATE(unsigned long long)
JANUS_CHECK_INSTANTIATE(float)
JANUS_CHECK_INSTANTIATE(double)
#undef JANUS_CHECK_INSTANTIATE

}  // namespace janus
