// A scomm communicator: a compact rank map, a context, and the base MPI communicator that
// carries its messages (together, its p2p channel), plus what local creation derives children
// from. Copies share the channel; the context is released when the last copy and the last
// request on it are gone.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "scomm/context/derivation.hpp"
#include "scomm/group/cart_grid.hpp"
#include "scomm/group/group.hpp"
#include "scomm/p2p/channel.hpp"

namespace scomm::comm {

class Runtime;

class Comm {
 public:
  Comm(p2p::ChannelPtr channel, context::Derivation derivation)
      : channel_(std::move(channel)), derivation_(derivation) {}

  p2p::Channel& channel() const noexcept { return *channel_; }
  const p2p::ChannelPtr& channel_ptr() const noexcept { return channel_; }
  group::Rank rank() const noexcept { return channel_->rank(); }
  group::Rank size() const noexcept { return channel_->size(); }
  context::ContextId context() const noexcept { return channel_->context(); }
  // The group of the communicator, over base (world) ranks.
  group::Group group() const { return group::Group(channel_->map_ptr(), channel_->select(rank())); }
  context::Derivation& derivation() noexcept { return derivation_; }

  // The grid of a Cartesian communicator (null for others): kept by dup, not by split.
  const std::shared_ptr<const group::CartGrid>& grid() const noexcept { return grid_; }
  void set_grid(std::shared_ptr<const group::CartGrid> grid) noexcept { grid_ = std::move(grid); }

  // The MPI communicator with the same members, for the base MPI's own collectives: made on
  // first use (collectively over the members, as SCOMM_Comm_to_MPI) and freed with this object.
  MPI_Comm native(Runtime& runtime);

  std::string_view name() const noexcept { return name_ ? std::string_view(*name_) : ""; }
  void set_name(std::string name) { name_ = std::make_unique<std::string>(std::move(name)); }

 private:
  p2p::ChannelPtr channel_;
  context::Derivation derivation_;
  // Made when set: most communicators are never named, and an empty std::string would cost
  // every creation a buffer copy when the communicator is moved into its handle.
  std::unique_ptr<std::string> name_;
  std::shared_ptr<const group::CartGrid> grid_;
  struct NativeComm {
    MPI_Comm comm = MPI_COMM_NULL;
    ~NativeComm() { MPI_Comm_free(&comm); }
  };
  std::unique_ptr<NativeComm> native_;
};

// A fresh internal tag for the next collective on `comm` (same at every member), and the tag of
// a collective's sequence number.
int internal_tag(const Runtime& runtime, Comm& comm);
int internal_tag_for(const Runtime& runtime, unsigned sequence);

}  // namespace scomm::comm
