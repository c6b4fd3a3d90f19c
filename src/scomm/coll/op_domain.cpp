#include "scomm/coll/op_domain.hpp"

#include <array>
#include <cstdint>
#include <string>

#include "scomm/base/error.hpp"

namespace scomm::coll {
namespace {

// The classes of section 6.9.2, as bits.
enum TypeClass : std::uint8_t {
  kCInteger = 1 << 0,
  kFortranInteger = 1 << 1,
  kFloatingPoint = 1 << 2,
  kLogical = 1 << 3,
  kComplex = 1 << 4,
  kByte = 1 << 5,
  kMultiLanguage = 1 << 6,
  kPair = 1 << 7,  // MPI_MINLOC and MPI_MAXLOC's value-index pairs
};
struct PredefinedOp {
  MPI_Op op;
  std::uint8_t domain;  // the classes it is defined on
  const char* name;
};

// MPI's predefined operations, each with the classes it is defined on.
std::array<PredefinedOp, 14> predefined_ops() noexcept {
  constexpr std::uint8_t kOrdered = kCInteger | kFortranInteger | kFloatingPoint | kMultiLanguage;
  constexpr std::uint8_t kLogicalOnes = kCInteger | kLogical;
  constexpr std::uint8_t kBitwise = kCInteger | kFortranInteger | kByte | kMultiLanguage;
  return {{{MPI_SUM, kOrdered | kComplex, "MPI_SUM"},
           {MPI_MAX, kOrdered, "MPI_MAX"},
           {MPI_MIN, kOrdered, "MPI_MIN"},
           {MPI_PROD, kOrdered | kComplex, "MPI_PROD"},
           {MPI_LAND, kLogicalOnes, "MPI_LAND"},
           {MPI_LOR, kLogicalOnes, "MPI_LOR"},
           {MPI_LXOR, kLogicalOnes, "MPI_LXOR"},
           {MPI_BAND, kBitwise, "MPI_BAND"},
           {MPI_BOR, kBitwise, "MPI_BOR"},
           {MPI_BXOR, kBitwise, "MPI_BXOR"},
           {MPI_MAXLOC, kPair, "MPI_MAXLOC"},
           {MPI_MINLOC, kPair, "MPI_MINLOC"},
           {MPI_REPLACE, 0, "MPI_REPLACE"},
           {MPI_NO_OP, 0, "MPI_NO_OP"}}};
}

// The position of `op` in `ops`; -1 for none.
int index_of(const std::array<PredefinedOp, 14>& ops, MPI_Op op) noexcept {
  for (std::size_t i = 0; i < ops.size(); ++i)
    if (ops[i].op == op) return static_cast<int>(i);
  return -1;
}

// The class of the types some base MPIs lack or misdeclare: Fortran's types without a size and
// MPI_C_COMPLEX (SimGrid SMPI 3.32 has none), MPI_LONG_LONG_INT, and C++'s complex types (SMPI's
// macros name objects it never declares); 0 for any other type.
std::uint8_t class_of_optional(MPI_Datatype type) noexcept {
#ifdef MPI_DOUBLE_PRECISION
  if (type == MPI_INTEGER) return kFortranInteger;
  if (type == MPI_DOUBLE_PRECISION) return kFloatingPoint;
  if (type == MPI_LOGICAL) return kLogical;
  if (type == MPI_COMPLEX || type == MPI_DOUBLE_COMPLEX) return kComplex;
  if (type == MPI_2INTEGER || type == MPI_2REAL || type == MPI_2DOUBLE_PRECISION) return kPair;
#endif
#ifdef MPI_C_COMPLEX
  if (type == MPI_C_COMPLEX) return kComplex;
#endif
#ifdef MPI_LONG_LONG_INT
  if (type == MPI_LONG_LONG_INT) return kCInteger;
#endif
#ifndef SMPI_H
  if (type == MPI_CXX_FLOAT_COMPLEX || type == MPI_CXX_DOUBLE_COMPLEX ||
      type == MPI_CXX_LONG_DOUBLE_COMPLEX)
    return kComplex;
#endif
  return 0;
}

// The class of a predefined datatype; 0 for any other (a derived one among them). The common
// ones come first: each is one comparison.
std::uint8_t class_of(MPI_Datatype type) noexcept {
  if (type == MPI_DOUBLE || type == MPI_FLOAT || type == MPI_LONG_DOUBLE) return kFloatingPoint;
  if (type == MPI_INT || type == MPI_LONG || type == MPI_UNSIGNED || type == MPI_UNSIGNED_LONG ||
      type == MPI_LONG_LONG || type == MPI_UNSIGNED_LONG_LONG || type == MPI_SHORT ||
      type == MPI_UNSIGNED_SHORT || type == MPI_SIGNED_CHAR || type == MPI_UNSIGNED_CHAR ||
      type == MPI_CHAR || type == MPI_INT8_T || type == MPI_INT16_T || type == MPI_INT32_T ||
      type == MPI_INT64_T || type == MPI_UINT8_T || type == MPI_UINT16_T || type == MPI_UINT32_T ||
      type == MPI_UINT64_T)
    return kCInteger;
  if (type == MPI_AINT || type == MPI_OFFSET || type == MPI_COUNT) return kMultiLanguage;
  if (type == MPI_C_BOOL || type == MPI_CXX_BOOL) return kLogical;
  if (type == MPI_BYTE) return kByte;
  if (type == MPI_C_FLOAT_COMPLEX || type == MPI_C_DOUBLE_COMPLEX ||
      type == MPI_C_LONG_DOUBLE_COMPLEX)
    return kComplex;
  if (type == MPI_2INT || type == MPI_DOUBLE_INT || type == MPI_FLOAT_INT || type == MPI_LONG_INT ||
      type == MPI_SHORT_INT || type == MPI_LONG_DOUBLE_INT)
    return kPair;
  if (type == MPI_INTEGER1 || type == MPI_INTEGER2 || type == MPI_INTEGER4 || type == MPI_INTEGER8)
    return kFortranInteger;
  if (type == MPI_REAL || type == MPI_REAL4 || type == MPI_REAL8 || type == MPI_REAL16)
    return kFloatingPoint;
  // Not MPI_COMPLEX32: MPICH 4.0 (without quad precision) sums none.
  if (type == MPI_COMPLEX8 || type == MPI_COMPLEX16) return kComplex;
  return class_of_optional(type);
}

}  // namespace

int predefined_op_index(MPI_Op op) noexcept {
  return index_of(predefined_ops(), op);
}

bool op_defined_on(MPI_Op op, MPI_Datatype type) noexcept {
  const auto ops = predefined_ops();
  const int index = index_of(ops, op);
  if (index < 0) return true;  // a user-defined operation
  return (ops[static_cast<std::size_t>(index)].domain & class_of(type)) != 0;
}

void throw_undefined_op(MPI_Op op, MPI_Datatype type) {
  // A derived type's name is the user's, or the base MPI's own ("Dup MPI_EMPTY").
  int integers = 0, addresses = 0, types = 0, combiner = MPI_COMBINER_NAMED;
  MPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner);
  char type_name[MPI_MAX_OBJECT_NAME] = "";
  int length = 0;
  if (combiner == MPI_COMBINER_NAMED) MPI_Type_get_name(type, type_name, &length);
  const auto ops = predefined_ops();
  const int index = index_of(ops, op);
  throw Error(ErrorClass::kOp, std::string(index < 0 ? "a user-defined operation"
                                                     : ops[static_cast<std::size_t>(index)].name) +
                                   " is not defined on " +
                                   (length > 0 ? type_name : "a derived datatype") +
                                   " (MPI 4.1, section 6.9.2)");
}

}  // namespace scomm::coll
