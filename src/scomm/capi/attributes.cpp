// Attribute caching: keyvals and the attributes of communicators (capi/attributes.hpp). The
// callbacks are the user's and may call scomm (free the communicator an attribute holds, set
// other attributes): nothing here holds a reference into a table across a callback.
#include "scomm/capi/attributes.hpp"

#include <string>

#include "scomm/capi/context.hpp"
#include "scomm/p2p/mpi_check.hpp"

namespace scomm::capi {
namespace {

[[noreturn]] void throw_bad_keyval(int keyval) {
  if (keyval > SCOMM_KEYVAL_INVALID && keyval < kFirstUserKeyval)
    throw Error(ErrorClass::kArg, "keyval " + std::to_string(keyval) +
                                      " is predefined: it cannot be set, deleted or freed");
  throw Error(ErrorClass::kArg, "keyval " + std::to_string(keyval) +
                                    " is not live (freed, or never created by "
                                    "SCOMM_Comm_create_keyval)");
}

// A user keyval the user still holds, or Error(kArg).
Keyval& held_keyval(int keyval) {
  Keyval* entry = context().keyvals.find(keyval);
  if (entry == nullptr || entry->freed_by_user) throw_bad_keyval(keyval);
  return *entry;
}

// One attribute fewer on keyval `keyval`; freed once neither the user nor an attribute has it.
void release_keyval(int keyval) noexcept {
  Keyval& entry = context().keyvals.get_live(keyval);
  if (--entry.attributes == 0 && entry.freed_by_user) context().keyvals.erase_live(keyval);
}

AttributeList* attributes_of(SCOMM_Comm comm) {
  auto& store = context().attributes;
  if (!store) return nullptr;
  const auto it = store->find(comm);
  return it == store->end() ? nullptr : &it->second;
}

// The attributes of `comm`, to add to: the map and its entry made if need be.
AttributeList& list_for(SCOMM_Comm comm) {
  auto& store = context().attributes;
  if (!store) store = std::make_unique<std::unordered_map<int, AttributeList>>();
  return (*store)[comm];
}

Attribute* find(SCOMM_Comm comm, int keyval) {
  AttributeList* list = attributes_of(comm);
  if (list == nullptr) return nullptr;
  for (Attribute& a : *list)
    if (a.keyval == keyval) return &a;
  return nullptr;
}

// Removes the attribute of `keyval` from `comm`'s list (present), the list with its last one.
void forget(SCOMM_Comm comm, int keyval) {
  auto& store = *context().attributes;
  AttributeList& list = store.at(comm);
  std::erase_if(list, [keyval](const Attribute& a) { return a.keyval == keyval; });
  if (list.empty()) store.erase(comm);
  if (store.empty()) context().attributes.reset();
  release_keyval(keyval);
}

// Calls the delete callback of attribute `a` of `comm`; Error(kArg) when it fails.
void call_delete(SCOMM_Comm comm, Attribute a) {  // a copy: the callback may change the list
  const Keyval entry = context().keyvals.get_live(a.keyval);  // a copy: the callback may free it
  if (entry.remove == nullptr) return;
  const int code = entry.remove(comm, a.keyval, a.value, entry.extra_state);
  if (code != SCOMM_SUCCESS)
    throw Error(ErrorClass::kArg, "the delete callback of keyval " + std::to_string(a.keyval) +
                                      " failed with " + std::to_string(code));
}

void set(SCOMM_Comm comm, int keyval, void* value) {
  if (Attribute* old = find(comm, keyval)) {
    call_delete(comm, *old);
    if ((old = find(comm, keyval)) != nullptr) {  // the callback may have changed the list
      old->value = value;
      return;
    }
  }
  list_for(comm).push_back({keyval, value});
  ++context().keyvals.get_live(keyval).attributes;
}

}  // namespace

AttributeList copy_attributes(SCOMM_Comm comm) {
  AttributeList copies;
  const AttributeList* list = attributes_of(comm);
  if (list == nullptr) return copies;
  const AttributeList originals = *list;  // a copy: callbacks may change the list
  for (const Attribute& original : originals) {
    // A callback may have deleted a later attribute, and with it its keyval's last hold.
    const Attribute* current = find(comm, original.keyval);
    if (current == nullptr) continue;
    const Attribute a = *current;
    const Keyval entry = context().keyvals.get_live(a.keyval);
    if (entry.copy == nullptr) continue;
    // The copy holds the keyval before its callback runs, which may delete the original: the
    // keyval's last hold once the user has freed it.
    ++context().keyvals.get_live(a.keyval).attributes;
    void* value = nullptr;
    int flag = 0;
    const int code = entry.copy(comm, a.keyval, entry.extra_state, a.value, &value, &flag);
    if (code != SCOMM_SUCCESS || flag == 0) release_keyval(a.keyval);
    if (code != SCOMM_SUCCESS) {
      delete_detached(SCOMM_COMM_NULL, copies);
      throw Error(ErrorClass::kArg, "the copy callback of keyval " + std::to_string(a.keyval) +
                                        " failed with " + std::to_string(code));
    }
    if (flag != 0) copies.push_back({a.keyval, value});
  }
  return copies;
}

void attach_attributes(SCOMM_Comm comm, AttributeList list) {
  if (list.empty()) return;
  list_for(comm) = std::move(list);
}

void delete_detached(SCOMM_Comm comm, AttributeList& list) noexcept {
  while (!list.empty()) {
    const Attribute last = list.back();
    list.pop_back();
    try {
      call_delete(comm, last);
    } catch (...) {  // a copy no communicator has: dropped all the same
    }
    release_keyval(last.keyval);
  }
}

void delete_attributes(SCOMM_Comm comm) {
  while (const AttributeList* list = attributes_of(comm)) {
    const Attribute last = list->back();
    call_delete(comm, last);
    if (find(comm, last.keyval) != nullptr) forget(comm, last.keyval);
  }
}

}  // namespace scomm::capi

using namespace scomm::capi;
using scomm::Error;
using scomm::ErrorClass;

extern "C" {

int SCOMM_Comm_dup_fn(SCOMM_Comm /*oldcomm*/, int /*comm_keyval*/, void* /*extra_state*/,
                      void* attribute_val_in, void* attribute_val_out, int* flag) {
  *static_cast<void**>(attribute_val_out) = attribute_val_in;
  *flag = 1;
  return SCOMM_SUCCESS;
}

int SCOMM_Comm_create_keyval(SCOMM_Comm_copy_attr_function* comm_copy_attr_fn,
                             SCOMM_Comm_delete_attr_function* comm_delete_attr_fn, int* comm_keyval,
                             void* extra_state) {
  return guarded("SCOMM_Comm_create_keyval", [&] {
    require(comm_keyval, "comm_keyval");
    *comm_keyval =
        context().keyvals.emplace(Keyval{comm_copy_attr_fn, comm_delete_attr_fn, extra_state});
  });
}

int SCOMM_Comm_free_keyval(int* comm_keyval) {
  return guarded("SCOMM_Comm_free_keyval", [&] {
    require(comm_keyval, "comm_keyval");
    Keyval& entry = held_keyval(*comm_keyval);
    entry.freed_by_user = true;
    if (entry.attributes == 0) context().keyvals.erase_live(*comm_keyval);
    *comm_keyval = SCOMM_KEYVAL_INVALID;
  });
}

int SCOMM_Comm_set_attr(SCOMM_Comm comm, int comm_keyval, void* attribute_val) {
  return on_comm("SCOMM_Comm_set_attr", comm, [&](CommEntry& e) {
    // Its delete callbacks ran when its user freed it: none would run for this one.
    if (e.retired)
      throw Error(ErrorClass::kComm, "communicator " + std::to_string(comm) +
                                         " is freed (kept for its persistent requests alone): "
                                         "it takes no attributes");
    held_keyval(comm_keyval);
    set(comm, comm_keyval, attribute_val);
  });
}

int SCOMM_Comm_delete_attr(SCOMM_Comm comm, int comm_keyval) {
  return on_comm("SCOMM_Comm_delete_attr", comm, [&](CommEntry&) {
    if (context().keyvals.find(comm_keyval) == nullptr) throw_bad_keyval(comm_keyval);
    const Attribute* attribute = find(comm, comm_keyval);
    if (attribute == nullptr)
      throw Error(ErrorClass::kArg, "communicator " + std::to_string(comm) +
                                        " has no attribute for keyval " +
                                        std::to_string(comm_keyval));
    call_delete(comm, *attribute);
    if (find(comm, comm_keyval) != nullptr) forget(comm, comm_keyval);
  });
}

}  // extern "C"

namespace scomm::capi {

std::optional<bool> mpi_attribute(int keyval, void** value) {
  if (keyval == SCOMM_TAG_UB) {
    *value = &context().tag_ub;
    return true;
  }
  const int mpi_keyval = keyval == SCOMM_HOST              ? MPI_HOST
                         : keyval == SCOMM_IO              ? MPI_IO
                         : keyval == SCOMM_WTIME_IS_GLOBAL ? MPI_WTIME_IS_GLOBAL
                         : keyval == SCOMM_APPNUM          ? MPI_APPNUM
                         : keyval == SCOMM_UNIVERSE_SIZE   ? MPI_UNIVERSE_SIZE
                                                           : MPI_KEYVAL_INVALID;
  if (mpi_keyval == MPI_KEYVAL_INVALID) return std::nullopt;
  int flag = 0;
  p2p::check_mpi(MPI_Comm_get_attr(MPI_COMM_WORLD, mpi_keyval, value, &flag), "MPI_Comm_get_attr");
  return flag != 0;
}

// SCOMM_Comm_get_attr for a user's keyval (capi/topology.cpp has the predefined ones).
bool user_attribute(SCOMM_Comm comm, int keyval, void** value) {
  if (context().keyvals.find(keyval) == nullptr) throw_bad_keyval(keyval);
  const Attribute* attribute = find(comm, keyval);
  if (attribute == nullptr) return false;
  *value = attribute->value;
  return true;
}

}  // namespace scomm::capi
