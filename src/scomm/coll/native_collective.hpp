// The base MPI's own nonblocking collective on a communicator's MPI twin (SCOMM_COLL_<OP>=native),
// as a scomm operation that keeps the twin alive until the collective is done.
#pragma once

#include <mpi.h>

#include <memory>

#include "scomm/comm/comm.hpp"
#include "scomm/p2p/request.hpp"

namespace scomm::coll {

class NativeCollective final : public p2p::Operation {
 public:
  NativeCollective(MPI_Request request, std::shared_ptr<comm::NativeComm> comm) noexcept
      : request_(request), comm_(std::move(comm)) {}
  // An abandoned one (its request freed, or scomm finalized under it) is waited for: MPI advances
  // its own nonblocking collectives, and the twin may go only after.
  ~NativeCollective() override;
  NativeCollective(const NativeCollective&) = delete;
  NativeCollective& operator=(const NativeCollective&) = delete;

  bool progress() override;
  // Waits inside MPI when no scomm operation needs advancing meanwhile, else polls.
  void finish(p2p::MatchingEngine& engine) override;

 private:
  MPI_Request request_;
  std::shared_ptr<comm::NativeComm> comm_;
};

}  // namespace scomm::coll
