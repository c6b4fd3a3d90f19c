#include "environment.hpp"

#include "source_revision.h"  // generated at every build (cmake/ScommSourceRevision.cmake)

#include <ctime>
#include <fstream>
#include <thread>

#include <sys/utsname.h>
#include <unistd.h>

#ifndef SCOMM_BUILD_TYPE
#define SCOMM_BUILD_TYPE "unknown"
#endif

namespace scomm::bench {
namespace {

std::string compiler() {
#if defined(__clang__)
  return "clang " __clang_version__ ", " SCOMM_BUILD_TYPE;
#elif defined(__GNUC__)
  return "g++ " __VERSION__ ", " SCOMM_BUILD_TYPE;
#else
  return "unknown compiler, " SCOMM_BUILD_TYPE;
#endif
}

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.starts_with("model name")) return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M UTC", &utc);
  return buffer;
}

std::string system_name() {
  utsname name{};
  if (uname(&name) != 0) return "unknown system";
  return std::string(name.sysname) + " " + name.release;
}

unsigned memory_gib() {
  const double bytes =
      static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
  return static_cast<unsigned>(bytes / (1024.0 * 1024.0 * 1024.0) + 0.5);
}

}  // namespace

Environment current_environment(const std::string& command) {
  return {.command = command,
          .compiler = compiler(),
          .cpu = cpu_model(),
          .date = utc_now(),
          .revision = SCOMM_SOURCE_REVISION,
          .cores = std::thread::hardware_concurrency(),
          .system = system_name(),
          .memory_gib = memory_gib()};
}

std::string json_members(const Environment& where) {
  return "\"compiler\": " + json_string(where.compiler) + ", \"cpu\": " + json_string(where.cpu) +
         ", \"cores\": " + std::to_string(where.cores) + ", \"date\": " + json_string(where.date) +
         ", \"system\": " + json_string(where.system) +
         ", \"memory_gib\": " + std::to_string(where.memory_gib) +
         ", \"revision\": " + json_string(where.revision);
}

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace scomm::bench
