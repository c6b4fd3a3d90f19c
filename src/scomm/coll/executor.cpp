#include "scomm/coll/executor.hpp"

#include <climits>
#include <cstring>
#include <string>

#include "scomm/base/error.hpp"
#include "scomm/p2p/mpi_check.hpp"
#include "scomm/p2p/point_to_point.hpp"

namespace scomm::coll {
namespace {

int mpi_count(std::int64_t count) {
  if (count > INT_MAX)
    throw Error(ErrorClass::kCount,
                "a collective message of " + std::to_string(count) + " elements exceeds INT_MAX");
  return static_cast<int>(count);
}

// Contiguous with no gaps and no lower bound: copies and reductions can treat it as bytes.
bool is_plain(MPI_Datatype type) {
  MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  int size = 0;
  MPI_Type_get_extent(type, &lb, &extent);
  MPI_Type_get_true_extent(type, &true_lb, &true_extent);
  MPI_Type_size(type, &size);
  return lb == 0 && true_lb == 0 && extent == size && true_extent == size;
}

}  // namespace

ScheduleRun::ScheduleRun(p2p::MatchingEngine& engine, p2p::ChannelPtr channel, int tag,
                         Schedule schedule, const Binding& binding)
    : engine_(engine),
      channel_(std::move(channel)),
      tag_(tag),
      schedule_(std::move(schedule)),
      op_(binding.op) {
  if (op_ != MPI_OP_NULL) {
    int commutative = 1;
    MPI_Op_commutative(op_, &commutative);
    commutative_ = commutative != 0;
  }
  buffers_.push_back(typed(binding.input, binding.send_type));
  buffers_.push_back(typed(binding.output, binding.recv_type));
  allocate_temps();
  // Last: the destructor releases it, and runs only for a fully built run.
  if (!channel_->hold_internal_tag(tag_))
    throw Error(ErrorClass::kIntern,
                "more collectives in flight on one communicator than internal tags (" +
                    std::to_string(context::TagLayout::kSequencedTags) +
                    "): complete some before starting more");
}

ScheduleRun::~ScheduleRun() {
  if (background_) engine_.remove_background(*this);
  // A run abandoned after a failure leaves no MPI request behind.
  for (p2p::Request& request : pending_) request.release(engine_);
  channel_->release_internal_tag(tag_);
}

ScheduleRun::TypedBuffer ScheduleRun::typed(const void* base, MPI_Datatype type) const {
  TypedBuffer buffer;
  buffer.base = static_cast<std::byte*>(const_cast<void*>(base));
  buffer.type = type;
  if (type != MPI_DATATYPE_NULL) {
    MPI_Aint lb = 0;
    MPI_Type_get_extent(type, &lb, &buffer.extent);
  }
  return buffer;
}

void ScheduleRun::allocate_temps() {
  for (const TempBuffer& temp : schedule_.temps()) {
    const TypedBuffer& like = buffers_[static_cast<std::size_t>(temp.type)];
    MPI_Aint true_lb = 0, true_extent = 0;
    MPI_Type_get_true_extent(like.type, &true_lb, &true_extent);
    const std::size_t bytes =
        temp.count == 0 ? 0
                        : static_cast<std::size_t>(true_extent + (temp.count - 1) * like.extent);
    storage_.push_back(std::make_unique<std::byte[]>(bytes));
    // Element 0 starts at the true lower bound: the address MPI is given is base - true_lb.
    buffers_.push_back({storage_.back().get() - true_lb, like.type, like.extent});
  }
}

std::byte* ScheduleRun::address(const Block& block) const {
  const TypedBuffer& b = buffer(block.slot);
  return b.base + block.offset * b.extent;
}

bool ScheduleRun::progress() {
  if (failure_) std::rethrow_exception(failure_);
  try {
    return advance(false);
  } catch (...) {
    failure_ = std::current_exception();
    throw;
  }
}

void ScheduleRun::run() {
  advance(true);
}

void ScheduleRun::run_in_background() {
  engine_.add_background(*this);
  background_ = true;
}

bool ScheduleRun::advance(bool blocking) {
  const auto& rounds = schedule_.rounds();
  while (round_ < rounds.size()) {
    if (!posted_) start_round();
    if (!round_complete(blocking)) return false;
    for (const LocalStep& step : rounds[round_].local) run_local(step);
    posted_ = false;
    ++round_;
  }
  return true;
}

void ScheduleRun::start_round() {
  const Round& round = schedule_.rounds()[round_];
  pending_.clear();
  for (const Transfer& t : round.receives) {
    const TypedBuffer& b = buffer(t.block.slot);
    pending_.push_back(p2p::irecv(engine_, channel_, address(t.block), mpi_count(t.block.count),
                                  b.type, t.peer, tag_));
  }
  for (const Transfer& t : round.sends) {
    const TypedBuffer& b = buffer(t.block.slot);
    pending_.push_back(p2p::isend(channel_, address(t.block), mpi_count(t.block.count), b.type,
                                  t.peer, tag_, p2p::SendMode::kStandard));
  }
  posted_ = true;
}

bool ScheduleRun::round_complete(bool blocking) {
  p2p::Status status;
  while (!pending_.empty()) {
    p2p::Request& last = pending_.back();
    if (!(blocking ? last.wait(engine_, status) : last.test(engine_, status))) return false;
    pending_.pop_back();
  }
  return true;
}

void ScheduleRun::run_local(const LocalStep& step) {
  if (step.from.count == 0 && step.to.count == 0) return;
  if (step.kind == LocalKind::kCopy)
    copy(step.from, step.to);
  else
    reduce(step);
}

void ScheduleRun::copy(const Block& from, const Block& to) {
  const TypedBuffer& source = buffer(from.slot);
  const TypedBuffer& target = buffer(to.slot);
  std::byte* in = address(from);
  std::byte* out = address(to);
  if (in == out && source.type == target.type) return;
  if (source.type == target.type && is_plain(source.type)) {
    std::memmove(out, in, static_cast<std::size_t>(from.count * source.extent));
    return;
  }
  int bytes = 0;
  p2p::check_mpi(MPI_Pack_size(mpi_count(from.count), source.type, MPI_COMM_SELF, &bytes),
                 "MPI_Pack_size");
  pack_scratch_.resize(static_cast<std::size_t>(bytes));
  int position = 0;
  p2p::check_mpi(MPI_Pack(in, mpi_count(from.count), source.type, pack_scratch_.data(), bytes,
                          &position, MPI_COMM_SELF),
                 "MPI_Pack");
  const int packed = position;
  position = 0;
  p2p::check_mpi(MPI_Unpack(pack_scratch_.data(), packed, &position, out, mpi_count(to.count),
                            target.type, MPI_COMM_SELF),
                 "MPI_Unpack");
}

void ScheduleRun::reduce(const LocalStep& step) {
  const TypedBuffer& target = buffer(step.to.slot);
  const int count = mpi_count(step.to.count);
  if (step.kind == LocalKind::kReduceLeft || commutative_) {
    p2p::check_mpi(MPI_Reduce_local(address(step.from), address(step.to), count, target.type, op_),
                   "MPI_Reduce_local");
    return;
  }
  // to = to op from, with MPI_Reduce_local's in op inout: reduce into a copy of `from`, then
  // copy the result back.
  const Slot scratch = static_cast<Slot>(buffers_.size());
  MPI_Aint true_lb = 0, true_extent = 0;
  MPI_Type_get_true_extent(target.type, &true_lb, &true_extent);
  auto storage = std::make_unique<std::byte[]>(
      static_cast<std::size_t>(true_extent + (step.to.count - 1) * target.extent));
  buffers_.push_back({storage.get() - true_lb, target.type, target.extent});
  const Block copy_of_from{scratch, 0, step.to.count};
  copy(step.from, copy_of_from);
  p2p::check_mpi(MPI_Reduce_local(address(step.to), address(copy_of_from), count, target.type, op_),
                 "MPI_Reduce_local");
  copy(copy_of_from, step.to);
  buffers_.pop_back();
}

}  // namespace scomm::coll
