// Resident memory growth per communicator, measured the same way for every library: VmRSS from
// /proc/self/status before and after creating N live communicators, per rank, reported by rank 0
// as the median (and range) over ranks, one JSON line per run.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace scomm::bench::rss {

// Resident set size of this process in bytes (0 when /proc is not there).
inline long resident_bytes() {
  std::ifstream status("/proc/self/status");
  std::string key;
  long kib = 0;
  while (status >> key) {
    if (key == "VmRSS:") {
      status >> kib;
      return kib * 1024;
    }
    status.ignore(4096, '\n');
  }
  return 0;
}

struct Arguments {
  std::string mode;
  int count = 0;
};

// MODE COUNT, or exits with a usage line naming the accepted modes.
inline Arguments parse(int argc, char** argv, const char* modes) {
  if (argc != 3 || std::atoi(argv[2]) <= 0) {
    std::fprintf(stderr, "usage: %s {%s} COUNT\n", argv[0], modes);
    std::exit(2);
  }
  return {argv[1], std::atoi(argv[2])};
}

// First line of the MPI library's version string, as JSON-safe text.
inline std::string library_version() {
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(version, &length);
  std::string text(version, static_cast<std::size_t>(length));
  text = text.substr(0, text.find('\n'));
  std::replace(text.begin(), text.end(), '"', '\'');
  std::replace(text.begin(), text.end(), '\t', ' ');
  return text;
}

// Gathers each rank's growth at rank 0, which prints the run's JSON line.
inline void report(const char* library, const Arguments& args, long growth, long fixed) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<long> all(static_cast<std::size_t>(size));
  MPI_Gather(&growth, 1, MPI_LONG, all.data(), 1, MPI_LONG, 0, MPI_COMM_WORLD);
  if (rank != 0) return;
  std::sort(all.begin(), all.end());
  const double n = args.count;
  std::printf(
      "{\"library\": \"%s\", \"version\": \"%s\", \"mode\": \"%s\", \"processes\": %d, "
      "\"communicators\": %d, \"bytes_per_comm_median\": %.1f, \"bytes_per_comm_min\": %.1f, "
      "\"bytes_per_comm_max\": %.1f, \"fixed_bytes_rank0\": %ld}\n",
      library, library_version().c_str(), args.mode.c_str(), size, args.count,
      static_cast<double>(all[all.size() / 2]) / n, static_cast<double>(all.front()) / n,
      static_cast<double>(all.back()) / n, fixed);
}

}  // namespace scomm::bench::rss
