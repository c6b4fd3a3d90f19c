// SCOMM_Comm_*: communicator handles around the comm layer.
#include <cstring>
#include <string>
#include <utility>

#include "scomm.h"
#include "scomm/capi/coll_call.hpp"
#include "scomm/capi/context.hpp"

namespace scomm::capi {

// Group handles (group.cpp): the group behind a handle, or nullptr (find_group) or
// Error(kGroup) (group_of) when it is not live; a new handle.
const group::Group* find_group(SCOMM_Group handle);
const group::Group& group_of(SCOMM_Group handle);
SCOMM_Group new_group_handle(group::Group g);

SCOMM_Comm new_comm_handle(std::optional<comm::Comm>&& comm, ErrhandlerRef errhandler) {
  if (!comm) return SCOMM_COMM_NULL;
  return context().comms.emplace(std::move(*comm), std::move(errhandler));
}

namespace {

// Starts a collective creation as a request whose completion writes *newcomm. The new
// communicator gets the parent's error handler as it is now, as MPI's do: the parent may be freed
// (or given another handler) before the creation completes.
SCOMM_Request creation_request(const CommEntry& parent_entry, SCOMM_Comm parent,
                               std::unique_ptr<comm::Creation> creation, SCOMM_Comm* newcomm) {
  comm::Creation* raw = creation.get();
  return context().requests.emplace(p2p::Request::operation(std::move(creation)), parent, raw,
                                    newcomm, parent_entry.errhandler);
}

SCOMM_Comm split(CommEntry& parent, int color, int key) {
  auto creation = comm::start_split(runtime(), parent.comm, color, key, context().map_policy, true);
  return new_comm_handle(comm::finish(runtime(), *creation), parent.errhandler);
}

// A blocking duplicate of e (handle c) with copies of its attributes.
SCOMM_Comm dup(CommEntry& e, SCOMM_Comm c, const SCOMM_Comm* newcomm) {
  require(newcomm, "newcomm");
  const SCOMM_Comm made = new_comm_handle(
      comm::finish(runtime(), *comm::start_dup(runtime(), e.comm, true)), e.errhandler);
  try {
    attach_attributes(made, copy_attributes(c));
  } catch (...) {
    context().comms.erase(made);
    throw;
  }
  return made;
}

// A nonblocking duplicate: its request, with the attributes copied now for the communicator it
// makes.
SCOMM_Request idup(SCOMM_Comm c, SCOMM_Comm* newcomm, const SCOMM_Request* request) {
  require(newcomm, "newcomm");
  require(request, "request");
  auto copies = scomm::base::make_rare<PendingAttributes>(copy_attributes(c));
  // Found again: the copy callbacks may have made communicators (the table moved) or freed it.
  CommEntry& e = comm_entry(c);
  const SCOMM_Request made =
      creation_request(e, c, comm::start_dup(runtime(), e.comm, false), newcomm);
  if (!copies->list.empty()) context().requests.get_live(made).attributes = std::move(copies);
  return made;
}

// Check mode: the parent's members agree on the range before the creation (coll/agreement.hpp).
// Out of line, as the creations without it carry no frame for it.
[[gnu::noinline]] void agree_on_range(CommEntry& e, int first, int last, int stride) {
  coll::agree_on_range(call_on(e, true), first, last, stride);
}

// Check mode, as agree_on_range; a member whose group handle is invalid takes part too (the
// others would wait for it), then reports its own error when the creation looks the group up.
[[gnu::noinline]] void agree_on_group(CommEntry& e, SCOMM_Group group) {
  const group::Group* known = find_group(group);
  try {
    coll::agree_on_group(call_on(e, true), known);
  } catch (const Error&) {
    if (known != nullptr) throw;
  }
}

// SCOMM_Comm_free with every check, out of line: what the fast path leaves, the errors.
[[gnu::noinline]] int free_general(SCOMM_Comm* c) {
  const SCOMM_Comm handle = c == nullptr ? SCOMM_COMM_NULL : *c;
  return on_comm("SCOMM_Comm_free", handle, [&](CommEntry& e) {
    if (handle == SCOMM_COMM_WORLD)
      throw Error(ErrorClass::kComm, "SCOMM_COMM_WORLD cannot be freed");
    // A delete callback that frees its own communicator again would have every callback not
    // yet done run twice.
    if (e.being_freed)
      throw Error(ErrorClass::kComm, "communicator " + std::to_string(handle) +
                                         " is being freed: its delete callbacks run");
    e.being_freed = true;
    try {
      delete_attributes(handle);  // callbacks may make communicators: the table may move
    } catch (const Error&) {
      context().comms.get_live(handle).being_freed = false;  // it stays, as MPI's
      throw;
    }
    if (context().comms.get_live(handle).persistent_requests > 0)
      retire_comm(handle);
    else
      context().comms.erase_live(handle);
    *c = SCOMM_COMM_NULL;
  });
}

}  // namespace

// Writes the result of a completed creation request (request.cpp calls it).
void complete_creation(RequestEntry& entry) {
  *entry.newcomm = new_comm_handle(std::move(entry.creation->result()), entry.errhandler);
  if (entry.attributes && *entry.newcomm != SCOMM_COMM_NULL)
    attach_attributes(*entry.newcomm, std::exchange(entry.attributes->list, {}));
}

}  // namespace scomm::capi

using namespace scomm::capi;
using scomm::Error;
using scomm::ErrorClass;
namespace comm = scomm::comm;

// Local creation and free are flattened like the message calls (capi/p2p.cpp).
extern "C" {

int SCOMM_Comm_size(SCOMM_Comm c, int* size) {
  return on_comm("SCOMM_Comm_size", c, [&](CommEntry& e) {
    require(size, "size");
    *size = e.comm.size();
  });
}

int SCOMM_Comm_rank(SCOMM_Comm c, int* rank) {
  return on_comm("SCOMM_Comm_rank", c, [&](CommEntry& e) {
    require(rank, "rank");
    *rank = e.comm.rank();
  });
}

int SCOMM_Comm_group(SCOMM_Comm c, SCOMM_Group* group) {
  return on_comm("SCOMM_Comm_group", c, [&](CommEntry& e) {
    require(group, "group");
    *group = new_group_handle(e.comm.group());
  });
}

int SCOMM_Comm_compare(SCOMM_Comm c1, SCOMM_Comm c2, int* result) {
  return on_comm("SCOMM_Comm_compare", c1, [&](CommEntry& e1) {
    require(result, "result");
    const CommEntry& e2 = comm_entry(c2);
    if (e1.comm.channel_ptr() == e2.comm.channel_ptr()) {
      *result = MPI_IDENT;
      return;
    }
    const auto groups = scomm::group::compare(e1.comm.group(), e2.comm.group());
    *result = groups == scomm::group::Comparison::kIdent     ? MPI_CONGRUENT
              : groups == scomm::group::Comparison::kSimilar ? MPI_SIMILAR
                                                             : MPI_UNEQUAL;
  });
}

int SCOMM_Comm_dup(SCOMM_Comm c, SCOMM_Comm* newcomm) {
  return on_comm("SCOMM_Comm_dup", c, [&](CommEntry& e) { *newcomm = dup(e, c, newcomm); });
}

int SCOMM_Comm_dup_with_info(SCOMM_Comm c, MPI_Info /*info*/, SCOMM_Comm* newcomm) {
  return on_comm("SCOMM_Comm_dup_with_info", c,
                 [&](CommEntry& e) { *newcomm = dup(e, c, newcomm); });
}

int SCOMM_Comm_idup(SCOMM_Comm c, SCOMM_Comm* newcomm, SCOMM_Request* request) {
  return on_comm("SCOMM_Comm_idup", c, [&](CommEntry&) { *request = idup(c, newcomm, request); });
}

int SCOMM_Comm_idup_with_info(SCOMM_Comm c, MPI_Info /*info*/, SCOMM_Comm* newcomm,
                              SCOMM_Request* request) {
  return on_comm("SCOMM_Comm_idup_with_info", c,
                 [&](CommEntry&) { *request = idup(c, newcomm, request); });
}

// scomm honours no hint: a communicator's hints in use are none, whatever was set.
int SCOMM_Comm_set_info(SCOMM_Comm c, MPI_Info /*info*/) {
  return on_comm("SCOMM_Comm_set_info", c, [](CommEntry&) {});
}

int SCOMM_Comm_get_info(SCOMM_Comm c, MPI_Info* info_used) {
  return on_comm("SCOMM_Comm_get_info", c, [&](CommEntry&) {
    require(info_used, "info_used");
    scomm::p2p::check_mpi(MPI_Info_create(info_used), "MPI_Info_create");
  });
}

int SCOMM_Comm_split(SCOMM_Comm c, int color, int key, SCOMM_Comm* newcomm) {
  return on_comm("SCOMM_Comm_split", c, [&](CommEntry& e) {
    require(newcomm, "newcomm");
    *newcomm = split(e, color, key);
  });
}

int SCOMM_Comm_isplit(SCOMM_Comm c, int color, int key, SCOMM_Comm* newcomm,
                      SCOMM_Request* request) {
  return on_comm("SCOMM_Comm_isplit", c, [&](CommEntry& e) {
    require(newcomm, "newcomm");
    require(request, "request");
    auto creation = comm::start_split(runtime(), e.comm, color, key, context().map_policy, false);
    *request = creation_request(e, c, std::move(creation), newcomm);
  });
}

int SCOMM_Comm_split_type(SCOMM_Comm c, int split_type, int key, MPI_Info /*info*/,
                          SCOMM_Comm* newcomm) {
  return on_comm("SCOMM_Comm_split_type", c, [&](CommEntry& e) {
    require(newcomm, "newcomm");
    if (split_type != SCOMM_COMM_TYPE_SHARED && split_type != SCOMM_UNDEFINED)
      throw Error(ErrorClass::kArg, "split type " + std::to_string(split_type) +
                                        " is neither SCOMM_COMM_TYPE_SHARED nor SCOMM_UNDEFINED");
    const int color = split_type == SCOMM_UNDEFINED ? SCOMM_UNDEFINED : context().node_leader;
    *newcomm = split(e, color, key);
  });
}

int SCOMM_Comm_create(SCOMM_Comm c, SCOMM_Group group, SCOMM_Comm* newcomm) {
  return on_comm("SCOMM_Comm_create", c, [&](CommEntry& e) {
    require(newcomm, "newcomm");
    *newcomm = new_comm_handle(
        comm::finish(runtime(), *comm::start_create(runtime(), e.comm, group_of(group), true)),
        e.errhandler);
  });
}

int SCOMM_Comm_create_group(SCOMM_Comm c, SCOMM_Group group, int tag, SCOMM_Comm* newcomm) {
  return on_comm("SCOMM_Comm_create_group", c, [&](CommEntry& e) {
    require(newcomm, "newcomm");
    if (tag < 0 || tag > runtime().layout().published_tag_ub())
      throw Error(ErrorClass::kTag, "tag " + std::to_string(tag) + " is outside 0..SCOMM_Tag_ub");
    *newcomm =
        new_comm_handle(comm::create_group(runtime(), e.comm, group_of(group), tag), e.errhandler);
  });
}

// The fast path frees a live communicator other than the world, without attributes or
// persistent requests and not being freed already (a delete callback may have deleted the last
// attribute before freeing it again), which cannot fail: no exception handling, no stack frame for
// the error path's messages.
[[gnu::flatten]] int SCOMM_Comm_free(SCOMM_Comm* c) {
  HandleTable<CommEntry>& comms = context().comms;
  const CommEntry* freed = c != nullptr && *c != SCOMM_COMM_WORLD ? comms.find(*c) : nullptr;
  if (freed != nullptr && freed->persistent_requests == 0 && !freed->being_freed &&
      !context().attributes) [[likely]] {
    comms.erase_live(*c);
    *c = SCOMM_COMM_NULL;
    return SCOMM_SUCCESS;
  }
  return free_general(c);
}

int SCOMM_Comm_set_name(SCOMM_Comm c, const char* name) {
  return on_comm("SCOMM_Comm_set_name", c, [&](CommEntry& e) {
    require(name, "name");
    e.comm.set_name(std::string(name, strnlen(name, SCOMM_MAX_OBJECT_NAME - 1)));
  });
}

int SCOMM_Comm_get_name(SCOMM_Comm c, char* name, int* resultlen) {
  return on_comm("SCOMM_Comm_get_name", c, [&](CommEntry& e) {
    require(name, "name");
    require(resultlen, "resultlen");
    copy_c_string(e.comm.name(), SCOMM_MAX_OBJECT_NAME, name, resultlen);
  });
}

int SCOMM_Comm_set_errhandler(SCOMM_Comm c, SCOMM_Errhandler errhandler) {
  return on_comm("SCOMM_Comm_set_errhandler", c, [&](CommEntry& e) {
    check_errhandler(errhandler);
    e.errhandler = ErrhandlerRef(errhandler);
  });
}

int SCOMM_Comm_get_errhandler(SCOMM_Comm c, SCOMM_Errhandler* errhandler) {
  return on_comm("SCOMM_Comm_get_errhandler", c, [&](CommEntry& e) {
    require(errhandler, "errhandler");
    *errhandler = e.errhandler.handle();
    if (e.errhandler.is_user()) ++context().errhandlers.get_live(*errhandler).user_references;
  });
}

int SCOMM_Comm_from_MPI(MPI_Comm mpi_comm, SCOMM_Comm* newcomm) {
  const int code = guarded("SCOMM_Comm_from_MPI", [&] {
    require(newcomm, "newcomm");
    *newcomm =
        new_comm_handle(comm::from_mpi(runtime(), mpi_comm, context().map_policy), ErrhandlerRef());
  });
  return code == 0 ? 0 : raise(SCOMM_COMM_WORLD, code);
}

int SCOMM_Comm_to_MPI(SCOMM_Comm c, MPI_Comm* mpicomm) {
  return on_comm("SCOMM_Comm_to_MPI", c, [&](CommEntry& e) {
    require(mpicomm, "mpicomm");
    *mpicomm = comm::to_mpi(runtime(), e.comm);
  });
}

[[gnu::flatten]] int SCOMM_Comm_create_range(SCOMM_Comm c, int first, int last, int stride,
                                             SCOMM_Comm* newcomm) {
  return on_comm("SCOMM_Comm_create_range", c, [&](CommEntry& e) {
    if (context().coll_check) [[unlikely]]
      agree_on_range(e, first, last, stride);  // first: a member that fails alone must agree too
    require(newcomm, "newcomm");
    *newcomm = new_comm_handle(
        comm::create_range(runtime(), e.comm, first, last, stride, context().map_policy),
        e.errhandler);
  });
}

int SCOMM_Comm_local_slots(SCOMM_Comm c, int* slots) {
  return on_comm("SCOMM_Comm_local_slots", c, [&](CommEntry& e) {
    require(slots, "slots");
    *slots = e.comm.local_slots_left();
  });
}

int SCOMM_Comm_create_from_group(SCOMM_Comm c, SCOMM_Group group, SCOMM_Comm* newcomm) {
  return on_comm("SCOMM_Comm_create_from_group", c, [&](CommEntry& e) {
    if (context().coll_check) [[unlikely]]
      agree_on_group(e, group);
    require(newcomm, "newcomm");
    *newcomm =
        new_comm_handle(comm::create_from_group(runtime(), e.comm, group_of(group)), e.errhandler);
  });
}

int SCOMM_Comm_live(int* communicators, int* contexts) {
  return guarded("SCOMM_Comm_live", [&] {
    require(communicators, "communicators");
    require(contexts, "contexts");
    *communicators = static_cast<int>(context().comms.live());
    *contexts = static_cast<int>(runtime().held().held());
  });
}

}  // extern "C"
