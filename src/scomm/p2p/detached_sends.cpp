#include "scomm/p2p/detached_sends.hpp"

#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <string_view>

#include "scomm/base/environment.hpp"
#include "scomm/p2p/mpi_check.hpp"

namespace scomm::p2p {
namespace {

constexpr std::int64_t kOpenMpiInlineBytes = 256;
constexpr std::int64_t kOpenMpiEagerBytes = 4096;
constexpr std::int64_t kLargestSlot = std::int64_t{1} << 20;

bool base_is_open_mpi() {
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(version, &length);
  return std::string_view(version, static_cast<std::size_t>(length)).starts_with("Open MPI");
}

[[noreturn]] void throw_bad_setting(const char* text) {
  throw Error(ErrorClass::kArg, std::string("SCOMM_DETACHED_SENDS: '") + text +
                                    "' is not off or MIN:MAX bytes with 1 <= MIN <= MAX <= " +
                                    std::to_string(kLargestSlot));
}

// "MIN:MAX" into `limits`.
void parse_range(const char* text, DetachLimits& limits) {
  char* end = nullptr;
  const long long low = std::strtoll(text, &end, 10);
  if (end == text || *end != ':') throw_bad_setting(text);
  const char* high_text = end + 1;
  const long long high = std::strtoll(high_text, &end, 10);
  if (end == high_text || *end != '\0' || low < 1 || low > high || high > kLargestSlot)
    throw_bad_setting(text);
  limits.min_bytes = low;
  limits.max_bytes = high;
}

}  // namespace

DetachLimits DetachLimits::from_environment() {
  DetachLimits limits;
  if (const char* text = base::setting("SCOMM_DETACHED_SENDS")) {
    if (std::string_view(text) != "off") parse_range(text, limits);
  } else if (base_is_open_mpi()) {
    limits.min_bytes = kOpenMpiInlineBytes + 1;
    limits.max_bytes = kOpenMpiEagerBytes;
  }
  return limits;
}

DetachedSends::DetachedSends(const DetachLimits& limits) : limits_(limits) {
  if (limits_.max_bytes == 0) limits_.slots = 0;
  free_.resize(static_cast<std::size_t>(limits_.slots));
  std::iota(free_.rbegin(), free_.rend(), 0);  // slot 0 first
}

DetachedSends::~DetachedSends() {
  if (!requests_.empty())
    wait_all(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
}

bool DetachedSends::post(const void* data, std::int64_t bytes, int count, MPI_Datatype type,
                         int dest, int mpi_tag, MPI_Comm base) {
  if (free_.empty()) {
    reap();
    if (free_.empty()) return false;
  }
  if (!storage_) {
    const auto slots = static_cast<std::size_t>(limits_.slots);
    storage_ = std::make_unique_for_overwrite<std::byte[]>(
        slots * static_cast<std::size_t>(limits_.max_bytes));
    requests_.assign(slots, MPI_REQUEST_NULL);
    completed_.resize(slots);
  }
  const int slot = free_.back();
  std::byte* copy = storage_.get() + static_cast<std::size_t>(slot) * limits_.max_bytes;
  std::memcpy(copy, data, static_cast<std::size_t>(bytes));
  check_mpi(MPI_Isend(copy, count, type, dest, mpi_tag, base, &requests_[slot]), "isend");
  free_.pop_back();
  return true;
}

void DetachedSends::reap() {
  int done = 0, code = MPI_SUCCESS;
  {
    [[maybe_unused]] const CompletionErrorsReturned errors_returned;
    code = MPI_Testsome(static_cast<int>(requests_.size()), requests_.data(), &done,
                        completed_.data(), MPI_STATUSES_IGNORE);
  }
  int error_class = MPI_SUCCESS;
  MPI_Error_class(code, &error_class);
  // A send that failed is complete too (MPI_ERR_IN_STATUS): its slot is free before the failure
  // is thrown.
  if ((error_class == MPI_SUCCESS || error_class == MPI_ERR_IN_STATUS) && done != MPI_UNDEFINED)
    free_.insert(free_.end(), completed_.begin(), completed_.begin() + done);
  check_mpi(code, "a detached collective send");
}

}  // namespace scomm::p2p
