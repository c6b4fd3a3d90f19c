// The library context: the one object that holds scomm's mutable state (handle tables, the map
// strategy, recent error messages). The C API reaches it only through context(), so a runtime
// that runs many ranks in one process (SimGrid SMPI) can give each rank its own.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>

#include "scomm/base/error.hpp"
#include "scomm/base/out_of_line_delete.hpp"
#include "scomm/capi/attributes.hpp"
#include "scomm/capi/comm_topology.hpp"
#include "scomm/capi/errhandler.hpp"
#include "scomm/capi/errors.hpp"
#include "scomm/capi/handle_table.hpp"
#include "scomm/capi/kept_types.hpp"
#include "scomm/coll/schedule_cache.hpp"
#include "scomm/coll/selection.hpp"
#include "scomm/coll/shared_schedules.hpp"
#include "scomm/comm/comm.hpp"
#include "scomm/comm/create.hpp"
#include "scomm/comm/runtime.hpp"
#include "scomm/group/group.hpp"
#include "scomm/p2p/completion.hpp"
#include "scomm/p2p/plain_request.hpp"
#include "scomm/p2p/request.hpp"
#include "scomm/topo/comm_levels.hpp"

namespace scomm::capi {

struct CommEntry {
  CommEntry(comm::Comm&& c, ErrhandlerRef handler)
      : comm(std::move(c)), errhandler(std::move(handler)) {}

  // The schedules of the communicator's last collectives, made on its first collective.
  coll::ScheduleCache& schedules(coll::SharedSchedules& shared) {
    if (!schedule_cache)
      schedule_cache = base::make_rare<coll::ScheduleCache>(&shared, comm.rank(), comm.size());
    return *schedule_cache;
  }
  // Its levels, restricted from the world's on first use.
  CommTopology& topology(const topo::Levels& world, const topo::LevelCosts& costs) {
    if (!topology_cache)
      topology_cache =
          base::make_rare<CommTopology>(topo::Network(topo::levels_of(comm, world), costs));
    return *topology_cache;
  }

  comm::Comm comm;
  ErrhandlerRef errhandler;
  base::RarePtr<coll::ScheduleCache> schedule_cache;
  base::RarePtr<CommTopology> topology_cache;
  // Persistent requests made on it and not freed: MPI lets them start after SCOMM_Comm_free, so
  // a communicator its user frees while they remain is retired (retire_comm) instead, and goes
  // with the last of them.
  int persistent_requests = 0;
  bool retired = false;
  bool being_freed = false;  // its attributes' delete callbacks run (SCOMM_Comm_free)
};

// The arguments of a persistent message (SCOMM_Send_init, SCOMM_Ssend_init, SCOMM_Recv_init).
struct PersistentMessage {
  bool receive;
  p2p::SendMode mode;  // a send's
  void* buffer;        // const for the sends
  int count;
  MPI_Datatype type;
  int peer;
  int tag;
  std::shared_ptr<const KeptTypes> kept;  // `type`'s duplicate, if derived (kept_types.hpp)
};
// A persistent collective's start (SCOMM_Bcast_init, ...) on a communicator and its handle: the
// new nonblocking collective's handle.
using PersistentCollective = std::function<int(CommEntry&, int)>;

// A persistent request on communicator `comm`: what each SCOMM_Start begins, and the request the
// last one started (SCOMM_REQUEST_NULL while inactive).
struct PersistentCall {
  std::variant<PersistentMessage, PersistentCollective> what;
  int comm;
  int started = 0;  // SCOMM_REQUEST_NULL
};

// The handle of a new persistent request, inactive (request_persistent.cpp), and the release of
// one that is freed.
int new_persistent_request(const PersistentCall& call);
void release_persistent_request(const PersistentCall& call) noexcept;
// Frees live communicator `handle` for its user while persistent requests on it remain: the
// handle turns stale, and the communicator stays under a handle only its requests hold
// (request_persistent.cpp). Their errors go through its error handler still.
void retire_comm(int handle) noexcept;

struct RequestEntry {
  // A point-to-point or collective request of communicator `c`, built in its slot by `make`
  // (nothing to move: a request is built and freed for every nonblocking message).
  template <std::invocable Make>
  RequestEntry(Make&& make, int c) : request(std::forward<Make>(make)()), comm(c) {}
  // A communicator creation (idup, isplit) whose completion writes *out, a communicator with
  // error handler `inherited`.
  RequestEntry(p2p::Request&& r, int c, comm::Creation* made, int* out,
               const ErrhandlerRef& inherited)
      : request(std::move(r)), comm(c), creation(made), newcomm(out), errhandler(inherited) {}
  // A persistent request, inactive.
  RequestEntry(const PersistentCall& call, int c)
      : request(p2p::Request::completed()),
        comm(c),
        persistent(base::make_rare<PersistentCall>(call)) {}

  p2p::Request request;
  int comm = 0;                          // whose error handler reports its failure
  comm::Creation* creation = nullptr;    // idup / isplit: the creation inside `request`
  int* newcomm = nullptr;                // where the new communicator's handle goes
  ErrhandlerRef errhandler;              // the new communicator's: its parent's at the start
  std::optional<p2p::Status> completed;  // complete, not yet reported (SCOMM_Testall)
  std::exception_ptr failure;            // failed, not yet reported (progress())
  std::uint64_t listed_in = 0;  // the last array look-up that saw it (no handle twice there)
  bool collective = false;      // a nonblocking collective's, which MPI forbids to cancel
  base::RarePtr<PersistentCall> persistent;     // a persistent request's: `request` is unused
  base::RarePtr<PendingAttributes> attributes;  // an idup's copies of its parent's attributes
  // Their delete callbacks run when the entry is destroyed: out of its slot (handle_table.hpp).
  static constexpr bool kDestroyedOutOfItsSlot = true;

  bool settled() const noexcept { return completed || failure; }
};

// A message a matched probe took (SCOMM_Mprobe, SCOMM_Improbe), for its one receive.
struct MessageEntry {
  p2p::ProbedMessage message;
  p2p::ChannelPtr channel;  // its communicator's: the status is in its ranks
  int comm;                 // whose error handler reports the receive's failure
};

// A send or receive that is one base MPI request (p2p::PlainRequest).
struct PlainRequestEntry {
  template <std::invocable Make>
  PlainRequestEntry(Make&& make, int c) noexcept(std::is_nothrow_invocable_v<Make>)
      : request(std::forward<Make>(make)()), comm(c) {}

  p2p::PlainRequest request;
  int comm = 0;                 // whose error handler reports its failure
  std::uint64_t listed_in = 0;  // the last array look-up that saw it (no handle twice there)
};

// A request of SCOMM_Waitall's general case: its entry in either table (none for
// SCOMM_REQUEST_NULL), and where it is among the requests waited for.
struct Waiting {
  static constexpr std::size_t kNotWaited = static_cast<std::size_t>(-1);
  RequestEntry* entry = nullptr;
  PlainRequestEntry* plain = nullptr;
  std::size_t active = kNotWaited;
};

// Scratch space of SCOMM_Waitall, kept so that completing requests allocates nothing.
struct WaitScratch {
  // The base requests of plain requests and their statuses, grown to the most ever waited for.
  std::vector<MPI_Request> plain_batch;
  std::vector<MPI_Status> plain_statuses;
  std::vector<Waiting> waiting;
  std::vector<p2p::Request> converted;  // the plain requests among others, as general ones
  std::vector<p2p::Request*> active;
  std::vector<std::optional<p2p::Status>> done;
  p2p::WaitBuffers buffers;
};

// The kind each table's handles carry (HandleTable), as scomm.h's predefined handles do. Keyvals
// are MPI's plain integers (SCOMM_TAG_UB is 3).
enum HandleKind : int {
  kKeyvalHandles = 0,
  kCommHandles = 1,
  kGroupHandles = 2,
  kRequestHandles = 3,
  kPlainRequestHandles = 4,  // HandleTable::has_upper_kind tells them from the general ones
  kMessageHandles = 5,
  kErrhandlerHandles = 6,
};

struct Context {
  static constexpr int kFirstGroupHandle = 2;  // 0 = SCOMM_GROUP_NULL, 1 = SCOMM_GROUP_EMPTY
  static constexpr int kFirstCommHandle = 1;   // 0 = SCOMM_COMM_NULL, 1 = SCOMM_COMM_WORLD
  static constexpr int kFirstRequestHandle = 1;
  static constexpr int kFirstMessageHandle = 2;  // 0 = SCOMM_MESSAGE_NULL, 1 = _NO_PROC

  HandleTable<group::Group> groups{kFirstGroupHandle, kGroupHandles};
  std::optional<group::Group> empty_group;  // made on first use: nothing allocated before
  group::MapPolicy map_policy;
  ErrorLog errors;
  std::unique_ptr<comm::Runtime> runtime;  // between SCOMM_Init and SCOMM_Finalize
  coll::Selection coll_selection;          // read by SCOMM_Init
  coll::SharedSchedules shared_schedules;  // emptied by SCOMM_Finalize
  bool coll_check = false;                 // SCOMM_COLL_CHECK=on, read by SCOMM_Init
  topo::Levels world_levels;               // discovered by SCOMM_Init
  topo::LevelCosts world_costs;            // SCOMM_TOPO_LINKS, read by SCOMM_Init
  bool multilevel_by_default = false;      // SCOMM_Init: the user named levels above the node
  int node_leader = 0;  // SCOMM_Init: the lowest world rank on this rank's node (split_type)
  int tag_ub = 0;       // SCOMM_Init: SCOMM_Tag_ub, which the SCOMM_TAG_UB attribute points to
  bool ever_initialized = false;  // SCOMM_Init has succeeded once (SCOMM_Initialized)
  // Before the tables whose entries hold them, so that they go after them.
  HandleTable<UserErrhandler> errhandlers{kFirstUserHandler, kErrhandlerHandles};
  HandleTable<Keyval> keyvals{kFirstUserKeyval, kKeyvalHandles};
  // The attributes of the communicators that have some, by handle; none: null.
  std::unique_ptr<std::unordered_map<int, AttributeList>> attributes;
  // Emptied by SCOMM_Finalize before the runtime goes.
  HandleTable<CommEntry> comms{kFirstCommHandle, kCommHandles};
  HandleTable<RequestEntry> requests{kFirstRequestHandle, kRequestHandles};
  HandleTable<MessageEntry> messages{kFirstMessageHandle,
                                     kMessageHandles};  // probed, not received yet
  std::size_t persistent_requests = 0;  // live: completion calls look for them when any are
  // Nearly every nonblocking message's (capi/request.cpp).
  HandleTable<PlainRequestEntry> plain_requests{kFirstRequestHandle, kPlainRequestHandles};
  WaitScratch wait_scratch;
  // Numbers the look-ups of request arrays (the entries' listed_in): an entry seen twice in one
  // holds its number already. 64 bits never wrap.
  std::uint64_t array_lookups = 0;
};

// The only mutable state of the library (defined in context.cpp). Constant-initialized: nothing
// is allocated until used, so reaching it tests no guard, and a rank's copy of the data segment
// holds no pointer into memory shared with another rank. A namespace-scope object rather than a
// function's static, whose every use reloads its address; hidden, so that the library reaches it
// at a fixed offset rather than through the global offset table.
#ifdef SCOMM_BUILDING_LIBRARY
extern constinit Context the_context [[gnu::visibility("hidden")]];
#endif
// For the white-box tests, which reach the context from outside the library.
Context& context_from_outside() noexcept;

// The one accessor, so that a runtime that runs many ranks in one process (SimGrid SMPI) can give
// each rank its own instance by changing this function alone; inline, as every call into scomm
// goes through it.
[[gnu::always_inline]] inline Context& context() {
#ifdef SCOMM_BUILDING_LIBRARY
  return the_context;
#else
  return context_from_outside();
#endif
}

// A handle for a new communicator (SCOMM_COMM_NULL for none) with error handler `errhandler`:
// its parent's, which MPI says a new communicator inherits. A copy: the parent's entry may move
// when the table grows.
int new_comm_handle(std::optional<comm::Comm>&& comm, ErrhandlerRef errhandler);

[[noreturn]] void throw_not_initialized();
// The runtime, or Error(kArg) when SCOMM_Init has not been called. Inline: every call passes it.
inline comm::Runtime& runtime() {
  comm::Runtime* runtime = context().runtime.get();
  if (runtime == nullptr) [[unlikely]]
    throw_not_initialized();
  return *runtime;
}

// The error code of a failure of `function`, its message kept for SCOMM_Error_string; the bare
// class when even the message cannot be stored (out of memory).
int report(ErrorClass error_class, const char* function, const char* what) noexcept;

// Runs `body`; a scomm::Error or std::bad_alloc becomes an error code naming `function`.
template <typename Body>
int guarded(const char* function, Body&& body) noexcept {
  try {
    body();
    return 0;
  } catch (const Error& e) {
    return report(e.error_class(), function, e.what());
  } catch (const std::bad_alloc&) {
    return report(ErrorClass::kNoMem, function, "out of memory");
  } catch (const std::exception& e) {
    return report(ErrorClass::kIntern, function, e.what());
  }
}

[[noreturn]] void throw_dead_comm(int handle);
// The live communicator behind `handle`, or Error(kComm). Inline: every call on a communicator
// starts here.
[[gnu::always_inline]] inline CommEntry& comm_entry(int handle) {
  CommEntry* entry = context().comms.find(handle);
  if (entry == nullptr) throw_dead_comm(handle);
  return *entry;
}
// Reports `code` through the error handler of communicator `handle` (SCOMM_COMM_WORLD's when
// `handle` is not live): returns it, or aborts the job for SCOMM_ERRORS_ARE_FATAL.
int raise(int handle, int code) noexcept;

// guarded() for calls on a communicator: failures go through its error handler.
template <typename Body>
int on_comm(const char* function, int handle, Body&& body) noexcept {
  const int code = guarded(function, [&] { body(comm_entry(handle)); });
  return code == 0 ? 0 : raise(handle, code);
}

[[noreturn]] void throw_null_pointer(const char* what);
// Throws Error(kArg) when a required output or input pointer is null.
template <typename T>
void require(T* pointer, const char* what) {
  if (pointer == nullptr) [[unlikely]]
    throw_null_pointer(what);
}

// Copies `text` into a C buffer of `capacity` bytes, cut to fit and NUL-terminated, as MPI's
// *_get_name and Error_string do.
inline void copy_c_string(std::string_view text, std::size_t capacity, char* out, int* length) {
  const std::size_t n = std::min(text.size(), capacity - 1);
  std::memcpy(out, text.data(), n);
  out[n] = '\0';
  *length = static_cast<int>(n);
}

}  // namespace scomm::capi
