#include "scomm/comm/runtime.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <new>
#include <ranges>
#include <string>

#include "scomm/base/error.hpp"
#include "scomm/context/context_table_factory.hpp"
#include "scomm/p2p/mpi_check.hpp"

namespace scomm::comm {
namespace {

int tag_ub_of(MPI_Comm comm) {
  int* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm, MPI_TAG_UB, &value, &found);
  if (!found || value == nullptr) throw Error(ErrorClass::kIntern, "MPI_TAG_UB is not set");
  return *value;
}

long integer_from_environment(const char* name, long fallback, long low, long high) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*end != '\0' || value < low || value > high)
    throw Error(ErrorClass::kArg, std::string(name) + " must be " + std::to_string(low) + ".." +
                                      std::to_string(high) + ", got '" + text + "'");
  return value;
}

// log2 of the number of base communicators: a power of two, as BasePlacement spreads ids by bits.
int base_bits_for(const context::TagLayout& layout, int requested) {
  if (requested > 0) {
    if (!std::has_single_bit(static_cast<unsigned>(requested)))
      throw Error(ErrorClass::kArg,
                  "SCOMM_BASE_COMMS must be a power of two, got " + std::to_string(requested));
    return std::countr_zero(static_cast<unsigned>(requested));
  }
  const auto needed = RuntimeOptions::kDefaultIds / layout.prefixes_per_base();
  return std::countr_zero(std::clamp<context::ContextId>(needed, 1, 256));
}

}  // namespace

RuntimeOptions RuntimeOptions::from_environment() {
  RuntimeOptions options;
  options.base_count = static_cast<int>(integer_from_environment("SCOMM_BASE_COMMS", 0, 0, 4096));
  options.derive_bits = static_cast<int>(integer_from_environment("SCOMM_DERIVE_BITS", 4, 0, 6));
  if (const char* name = std::getenv("SCOMM_CONTEXT_ALGORITHM"))
    options.algorithm = context::algorithm_from_name(name);
  if (const char* name = std::getenv("SCOMM_CONTEXT_STORAGE"))
    options.storage = context::storage_from_name(name);
  options.detached = p2p::DetachLimits::from_environment();
  return options;
}

Runtime::Runtime(MPI_Comm world, const RuntimeOptions& options)
    : options_(options),
      origin_(world),
      layout_(context::TagLayout::from_tag_ub(tag_ub_of(world))),
      placement_(base_bits_for(layout_, options.base_count), options.derive_bits),
      bases_(static_cast<std::size_t>(placement_.base_count())),
      id_capacity_(layout_.prefixes_per_base() * static_cast<context::ContextId>(bases_.size())),
      blocks_(id_capacity_ >> options.derive_bits),
      held_(id_capacity_, options.derive_bits) {
  make_bases(world);
  engine_ = std::make_unique<p2p::MatchingEngine>(
      bases_, layout_, placement_,
      context::make_context_table<p2p::Channel>(options.storage, id_capacity_, options.derive_bits),
      options.detached);
}

// The base communicators, each a duplicate of `world`. Where MPI runs out of communicators
// ("Too many communicators": MPICH has some 2,000) the ones made are freed and the failure is an
// Error, which SCOMM_Init returns, not an abort through the world's handler.
void Runtime::make_bases(MPI_Comm world) {
  const p2p::ErrorsReturned world_returns(world);
  for (std::size_t made = 0; made < bases_.size(); ++made) {
    const int rc = MPI_Comm_dup(world, &bases_[made]);
    if (rc != MPI_SUCCESS) {
      for (std::size_t i = 0; i < made; ++i) MPI_Comm_free(&bases_[i]);
      p2p::check_mpi(rc, ("MPI_Comm_dup of base communicator " + std::to_string(made) + " of " +
                          std::to_string(bases_.size()))
                             .c_str());
    }
    MPI_Comm_set_errhandler(bases_[made], MPI_ERRORS_RETURN);
  }
}

Runtime::~Runtime() {
  engine_->finish_released();  // their channels come back here while the engine lives
  engine_.reset();
  for (MPI_Comm& base : bases_) MPI_Comm_free(&base);
}

// Out of line: inlined into create_range, the non-members' path cost the members' path registers.
[[gnu::noinline]] void Runtime::decline_block(context::ContextId block) noexcept {
  blocks_.release(block);
}

void Runtime::prepare_blocks(context::ContextId first, context::ContextId count) {
  if (count == 0) return;
  const auto [first_id, id_count] = held_.prepare_blocks(first, count);
  engine_->prepare(first_id, id_count);
}

namespace {

// Out of line and cold: the error's message would otherwise cost every creation a stack frame.
[[noreturn, gnu::cold, gnu::noinline]] void throw_context_held(context::ContextId id) {
  throw Error(ErrorClass::kContext,
              "cannot prove message separation: context " + std::to_string(id) +
                  " is still used by a live communicator here (members made their local "
                  "creations on a communicator in different orders)");
}

}  // namespace

void Runtime::claim(context::Derivation derivation) {
  if (!held_.hold_unless_any_held(derivation.first, derivation.span())) [[unlikely]]
    throw_context_held(derivation.first);
}

p2p::Route Runtime::route(context::ContextId id) const noexcept {
  const auto [base, prefix] = placement_.place(id);
  return {id, bases_[static_cast<std::size_t>(base)], layout_.mpi_tag(prefix, 0),
          (1 << layout_.user_bits()) - 1};
}

template <typename Map>
Comm Runtime::open_on(const Map& map, group::Rank rank, context::Derivation derivation) {
  claim(derivation);
  void* memory = nullptr;
  p2p::Channel* channel = nullptr;
  try {
    memory = channel_blocks_.allocate();
    channel = new (memory) p2p::Channel(map, rank, route(derivation.first), this);
  } catch (...) {
    if (memory != nullptr) channel_blocks_.deallocate(memory);
    held_.release(derivation.first);  // the block stays as it was: its owner still has it
    throw;
  }
  engine_->attach(*channel);
  return Comm(p2p::ChannelPtr(channel), derivation);
}

Comm Runtime::open(const group::MapPtr& map, group::Rank rank, context::Derivation derivation) {
  return open_on(map, rank, derivation);
}

Comm Runtime::open(const group::Progression& terms, group::Rank rank,
                   context::Derivation derivation) {
  return open_on(terms, rank, derivation);
}

void Runtime::dispose(p2p::Channel* channel) noexcept {
  engine_->detach(*channel);
  const context::ContextId id = channel->context();
  remember_freed(id, held_.release(id));
  channel->~Channel();
  channel_blocks_.deallocate(channel);
}

void Runtime::remember_freed(context::ContextId id, bool block_emptied) noexcept {
  try {
    (block_emptied ? emptied_ : freed_in_held_blocks_).push_back(id);
  } catch (...) {  // no memory to remember it: the block goes back at once, its messages unchecked
    if (block_emptied) blocks_.release(held_.block_of(id));
  }
}

void Runtime::settle_freed_blocks() {
  if (emptied_.empty()) return;
  // Ids freed while their block held another one here, in the blocks emptied since.
  const auto emptied_since = std::partition(
      freed_in_held_blocks_.begin(), freed_in_held_blocks_.end(),
      [&](context::ContextId id) { return held_.holds_in_block(held_.block_of(id)); });
  drop_messages_of_freed(emptied_, {emptied_since, freed_in_held_blocks_.end()});
  blocks_.release_used(
      emptied_ | std::views::transform([&](context::ContextId id) { return held_.block_of(id); }));
  emptied_.clear();
  freed_in_held_blocks_.erase(emptied_since, freed_in_held_blocks_.end());
}

// `emptied`: ids whose free emptied their block; `others`: more ids of those blocks.
void Runtime::drop_messages_of_freed(std::span<const context::ContextId> emptied,
                                     std::span<const context::ContextId> others) {
  std::vector<bool> marked(bases_.size());
  std::vector<int> bases;
  for (const auto ids : {emptied, others})
    for (const context::ContextId id : ids) {
      if (bases.size() == bases_.size()) break;  // every base already
      const auto base = static_cast<std::size_t>(placement_.base_of(id));
      if (!marked[base]) bases.push_back(static_cast<int>(base));
      marked[base] = true;
    }
  engine_->take_arrived_on(bases);
  if (!engine_->has_orphans()) return;
  std::vector<context::ContextId> blocks;
  for (const context::ContextId id : emptied) blocks.push_back(held_.block_of(id));
  std::sort(blocks.begin(), blocks.end());
  engine_->discard_orphans_if([&](context::ContextId id) {
    return std::binary_search(blocks.begin(), blocks.end(), held_.block_of(id));
  });
}

ReservedBlocks::ReservedBlocks(Runtime& runtime, context::ContextId first, context::ContextId count)
    : runtime_(runtime), next_(first), end_(first + count) {
  runtime_.prepare_blocks(first, count);
}

ReservedBlocks::~ReservedBlocks() {
  for (context::ContextId block = next_; block < end_; ++block) runtime_.decline_block(block);
}

}  // namespace scomm::comm
