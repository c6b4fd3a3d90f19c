#include "scomm/comm/runtime.hpp"

#include <cstdlib>
#include <string>

#include "scomm/base/error.hpp"

namespace scomm::comm {
namespace {

int tag_ub_of(MPI_Comm comm) {
  int* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm, MPI_TAG_UB, &value, &found);
  if (!found || value == nullptr) throw Error(ErrorClass::kIntern, "MPI_TAG_UB is not set");
  return *value;
}

context::TagLayout checked_layout(MPI_Comm world, int base_count) {
  if (base_count < 1)
    throw Error(ErrorClass::kArg,
                "need at least one base communicator, got " + std::to_string(base_count));
  return context::TagLayout::from_tag_ub(tag_ub_of(world));
}

}  // namespace

Runtime::Runtime(MPI_Comm world, int base_count)
    : layout_(checked_layout(world, base_count)),
      contexts_(layout_.prefixes_per_base() * static_cast<context::ContextId>(base_count)) {
  bases_.resize(static_cast<std::size_t>(base_count));
  for (MPI_Comm& base : bases_) MPI_Comm_dup(world, &base);
}

Runtime::~Runtime() {
  for (MPI_Comm& base : bases_) MPI_Comm_free(&base);
}

int Runtime::base_count_from_environment() {
  const char* text = std::getenv("SCOMM_BASE_COMMS");
  if (text == nullptr || *text == '\0') return 1;
  char* end = nullptr;
  const long count = std::strtol(text, &end, 10);
  if (*end != '\0' || count < 1 || count > 4096)
    throw Error(ErrorClass::kArg,
                std::string("SCOMM_BASE_COMMS must be 1..4096, got '") + text + "'");
  return static_cast<int>(count);
}

}  // namespace scomm::comm
