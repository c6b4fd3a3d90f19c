// Elements of a type at a buffer, addressed so that MPI_Pack and MPI_Unpack take them: MPICH 4.0
// refuses a null buffer there, MPI_BOTTOM, which MPI allows (with a type of absolute addresses).
// Such data are addressed from address 1 by the type shifted down one byte.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>

#include "scomm/p2p/mpi_check.hpp"

namespace scomm::p2p {

class PackedBuffer {
 public:
  PackedBuffer(const void* buffer, MPI_Datatype type)
      : buffer_(static_cast<std::byte*>(const_cast<void*>(buffer))), type_(type) {
    if (buffer != nullptr) [[likely]]
      return;
    int one = 1;
    MPI_Aint down = -1;
    check_mpi(MPI_Type_create_hindexed(1, &one, &down, type, &shifted_),
              "MPI_Type_create_hindexed");
    MPI_Type_commit(&shifted_);
    buffer_ = reinterpret_cast<std::byte*>(std::uintptr_t{1});
    type_ = shifted_;
  }
  PackedBuffer(const PackedBuffer&) = delete;
  PackedBuffer& operator=(const PackedBuffer&) = delete;
  ~PackedBuffer() {
    if (shifted_ != MPI_DATATYPE_NULL) MPI_Type_free(&shifted_);
  }
  std::byte* buffer() const noexcept { return buffer_; }
  MPI_Datatype type() const noexcept { return type_; }

 private:
  std::byte* buffer_;
  MPI_Datatype type_;
  MPI_Datatype shifted_ = MPI_DATATYPE_NULL;
};

}  // namespace scomm::p2p
