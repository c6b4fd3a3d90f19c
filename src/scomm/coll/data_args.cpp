#include "scomm/coll/data_args.hpp"

#include <string>

#include "scomm/base/error.hpp"

namespace scomm::coll {

void throw_null_vector(const int* counts) {
  throw Error(ErrorClass::kArg,
              counts == nullptr ? "null counts array" : "null displacements array");
}

void throw_null_types() {
  throw Error(ErrorClass::kArg, "null datatypes array");
}

void throw_own_block_truncated(std::int64_t send_bytes, std::int64_t recv_bytes) {
  throw Error(ErrorClass::kTruncate, "the rank's own block: " + std::to_string(send_bytes) +
                                         " bytes sent into room for " + std::to_string(recv_bytes));
}

RootedArgs::RootedArgs(const Call& call, int root, Rooted direction, const void* sendbuf,
                       int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype)
    : direction_(direction),
      at_root_(call.comm.rank() == root),
      own_count_(direction == Rooted::kGather ? sendcount : recvcount),
      sendbuf_(sendbuf),
      sendtype_(sendtype),
      recvbuf_(recvbuf),
      recvtype_(recvtype) {
  check_root(call, root);
  const bool gathers = direction == Rooted::kGather;
  const void* own = gathers ? sendbuf : recvbuf;
  in_place_ = at_root_ && own == MPI_IN_PLACE;
  if (!in_place_) check_buffer(own, gathers ? sendcount : recvcount, gathers ? sendtype : recvtype);
  if (!at_root_) return;
  check_not_in_place(gathers ? recvbuf : sendbuf);
  if (!in_place_) check_not_aliased(sendbuf, recvbuf, gathers ? sendcount : recvcount);
}

void RootedArgs::check_root_side(const Call& call, const void* buffer, int count,
                                 MPI_Datatype type) const {
  if (!at_root_) return;
  check_data(buffer, count, type);
  if (in_place_ || call.agreement == nullptr) return;
  if (direction_ == Rooted::kGather)
    check_own_block_fits(own_count_, sendtype_, count, type);
  else
    check_own_block_fits(count, type, own_count_, recvtype_);
}

Binding RootedArgs::binding() const noexcept {
  const bool gathers = direction_ == Rooted::kGather;
  const bool has_send = gathers ? !in_place_ : at_root_;
  const bool has_recv = gathers ? at_root_ : !in_place_;
  return Binding{has_send ? sendbuf_ : nullptr, has_send ? sendtype_ : recvtype_,
                 has_recv ? recvbuf_ : nullptr, has_recv ? recvtype_ : sendtype_, MPI_OP_NULL};
}

ExchangeArgs::ExchangeArgs(const void* sendbuf, std::int64_t send_count, MPI_Datatype sendtype,
                           void* recvbuf, MPI_Datatype recvtype)
    : sendbuf_(sendbuf), sendtype_(sendtype), recvbuf_(recvbuf), recvtype_(recvtype) {
  check_not_in_place(recvbuf);
  if (!in_place()) check_not_aliased(sendbuf, recvbuf, send_count);
}

ExchangeArgs::ExchangeArgs(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                           int recvcount, MPI_Datatype recvtype)
    : ExchangeArgs(sendbuf, std::int64_t{sendcount}, sendtype, recvbuf, recvtype) {
  if (!in_place()) check_data(sendbuf, sendcount, sendtype);
  check_data(recvbuf, recvcount, recvtype);
  if (!in_place()) check_own_block_fits(sendcount, sendtype, recvcount, recvtype);
}

Binding ExchangeArgs::binding() const noexcept {
  return Binding{in_place() ? nullptr : sendbuf_, in_place() ? recvtype_ : sendtype_, recvbuf_,
                 recvtype_, MPI_OP_NULL};
}

}  // namespace scomm::coll
