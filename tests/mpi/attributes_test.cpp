// Attribute caching against MPI's own on the same calls: which copy and delete callbacks run, with
// which values, when attributes are set, replaced, deleted, duplicated (dup and idup) and freed;
// what get_attr finds; callbacks that fail or free communicators; and misuse.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "scomm_fixture.hpp"
#include "smpi_defects.hpp"

namespace {

// What the callbacks of one library did: "copy K V", "delete K V" (K: the keyval's index in the
// test, V: the value, a small integer cast to a pointer).
std::vector<std::string> calls;

void* as_value(long v) {
  return reinterpret_cast<void*>(v);
}
long from_value(void* p) {
  return reinterpret_cast<long>(p);
}

// Keyval k's index is its extra_state. Copies: 0 keeps the value (MPI's DUP_FN's way), 1 copies
// nothing, 2 doubles the value and keeps only even ones, 3 fails.
template <typename Comm>
int copy_callback(Comm, int, void* extra, void* in, void* out, int* flag) {
  const long k = from_value(extra), v = from_value(in);
  calls.push_back("copy " + std::to_string(k) + " " + std::to_string(v));
  if (k == 3) return 1;  // fails
  *flag = k == 0 || (k == 2 && v % 2 == 0) ? 1 : 0;
  *static_cast<void**>(out) = as_value(k == 2 ? 2 * v : v);
  return 0;
}
// Deletes: keyval 3's fails for value 13.
template <typename Comm>
int delete_callback(Comm, int, void* value, void* extra) {
  const long k = from_value(extra), v = from_value(value);
  calls.push_back("delete " + std::to_string(k) + " " + std::to_string(v));
  return k == 3 && v == 13 ? 1 : 0;
}

constexpr int kKeyvals = 4;

// The same script on either library: Api wraps its calls.
template <typename Api>
std::vector<std::string> script(Api& api) {
  calls.clear();
  typename Api::Comm comm = api.dup(api.world());
  for (int k = 0; k < 3; ++k) api.set(comm, k, 10 + k);  // 10, 11, 12
  api.set(comm, 2, 20);                                  // replaces 12: its delete runs
  calls.push_back("get 0 " + api.get(comm, 0));
  calls.push_back("get 3 " + api.get(comm, 3));  // not set
  typename Api::Comm copy = api.dup(comm);
  for (int k = 0; k < 3; ++k) calls.push_back("copy has " + api.get(copy, k));
  typename Api::Comm nonblocking = api.idup(comm);
  for (int k = 0; k < 3; ++k) calls.push_back("idup has " + api.get(nonblocking, k));
  api.remove(comm, 1);
  calls.push_back("after delete " + api.get(comm, 1));
  api.free(copy);
  api.free(nonblocking);
  api.free(comm);  // deletes 0 and 2: in whichever order, so the log is sorted below
  std::sort(calls.begin(), calls.end());
  return calls;
}

struct MpiApi {
  using Comm = MPI_Comm;
  int keyvals[kKeyvals];
  MpiApi() {
    for (long k = 0; k < kKeyvals; ++k)
      MPI_Comm_create_keyval(copy_callback<MPI_Comm>, delete_callback<MPI_Comm>, &keyvals[k],
                             as_value(k));
  }
  ~MpiApi() {
    for (int& k : keyvals) MPI_Comm_free_keyval(&k);
  }
  static MPI_Comm world() { return MPI_COMM_WORLD; }
  static MPI_Comm dup(MPI_Comm c) {
    MPI_Comm out;
    MPI_Comm_dup(c, &out);
    return out;
  }
  static MPI_Comm idup(MPI_Comm c) {
    if (kOnSmpi) return dup(c);  // SMPI 3.32 has no MPI_Comm_idup; it copies as dup does
    MPI_Comm out;
    MPI_Request r;
    MPI_Comm_idup(c, &out, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    return out;
  }
  void set(MPI_Comm c, int k, long v) { MPI_Comm_set_attr(c, keyvals[k], as_value(v)); }
  std::string get(MPI_Comm c, int k) {
    void* v = nullptr;
    int flag = 0;
    MPI_Comm_get_attr(c, keyvals[k], &v, &flag);
    return flag ? std::to_string(from_value(v)) : "none";
  }
  void remove(MPI_Comm c, int k) { MPI_Comm_delete_attr(c, keyvals[k]); }
  static void free(MPI_Comm& c) { MPI_Comm_free(&c); }
};

struct ScommApi {
  using Comm = SCOMM_Comm;
  int keyvals[kKeyvals];
  ScommApi() {
    for (long k = 0; k < kKeyvals; ++k)
      EXPECT_EQ(SCOMM_Comm_create_keyval(copy_callback<SCOMM_Comm>, delete_callback<SCOMM_Comm>,
                                         &keyvals[k], as_value(k)),
                SCOMM_SUCCESS);
  }
  ~ScommApi() {
    for (int& k : keyvals) EXPECT_EQ(SCOMM_Comm_free_keyval(&k), SCOMM_SUCCESS);
  }
  static SCOMM_Comm world() { return SCOMM_COMM_WORLD; }
  static SCOMM_Comm dup(SCOMM_Comm c) {
    SCOMM_Comm out = SCOMM_COMM_NULL;
    EXPECT_EQ(SCOMM_Comm_dup(c, &out), SCOMM_SUCCESS);
    return out;
  }
  static SCOMM_Comm idup(SCOMM_Comm c) {
    SCOMM_Comm out = SCOMM_COMM_NULL;
    SCOMM_Request r = SCOMM_REQUEST_NULL;
    EXPECT_EQ(SCOMM_Comm_idup(c, &out, &r), SCOMM_SUCCESS);
    EXPECT_EQ(SCOMM_Wait(&r, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
    return out;
  }
  void set(SCOMM_Comm c, int k, long v) {
    EXPECT_EQ(SCOMM_Comm_set_attr(c, keyvals[k], as_value(v)), SCOMM_SUCCESS);
  }
  std::string get(SCOMM_Comm c, int k) {
    void* v = nullptr;
    int flag = 0;
    EXPECT_EQ(SCOMM_Comm_get_attr(c, keyvals[k], &v, &flag), SCOMM_SUCCESS);
    return flag ? std::to_string(from_value(v)) : "none";
  }
  void remove(SCOMM_Comm c, int k) {
    EXPECT_EQ(SCOMM_Comm_delete_attr(c, keyvals[k]), SCOMM_SUCCESS);
  }
  static void free(SCOMM_Comm& c) { EXPECT_EQ(SCOMM_Comm_free(&c), SCOMM_SUCCESS); }
};

class AttributesTest : public ScommTest {};

TEST_F(AttributesTest, CallbacksAndValuesAreMpis) {
  std::vector<std::string> theirs, ours;
  {
    MpiApi mpi;
    theirs = script(mpi);
  }
  {
    ScommApi api;
    ours = script(api);
  }
  EXPECT_EQ(ours, theirs);
  // 1 replaced, 2 gets, 3 copies and 3 gets for each duplicate, 1 deleted and its get, 6 freed.
  EXPECT_EQ(ours.size(), 23u);
}

// A library's pattern: an attribute holds an inner communicator, which its delete callback frees
// when the user's communicator goes.
int free_inner(SCOMM_Comm, int, void* value, void*) {
  return SCOMM_Comm_free(static_cast<SCOMM_Comm*>(value));
}

TEST_F(AttributesTest, ADeleteCallbackMayFreeACommunicator) {
  int keyval = SCOMM_KEYVAL_INVALID;
  ASSERT_EQ(SCOMM_Comm_create_keyval(SCOMM_COMM_NULL_COPY_FN, free_inner, &keyval, nullptr), 0);
  SCOMM_Comm outer = SCOMM_COMM_NULL, inner = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &outer), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_dup(outer, &inner), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_set_attr(outer, keyval, &inner), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_free_keyval(&keyval), SCOMM_SUCCESS);  // the attribute keeps it
  EXPECT_EQ(keyval, SCOMM_KEYVAL_INVALID);
  int communicators = 0, contexts = 0;
  SCOMM_Comm_live(&communicators, &contexts);
  EXPECT_EQ(communicators, 3);
  ASSERT_EQ(SCOMM_Comm_free(&outer), SCOMM_SUCCESS);
  EXPECT_EQ(inner, SCOMM_COMM_NULL);
  SCOMM_Comm_live(&communicators, &contexts);
  EXPECT_EQ(communicators, 1);
}

// A copy callback that deletes the original attribute, the last hold on a keyval the user freed:
// the copy must hold the keyval itself. It held it only after the callback, when the keyval was
// gone and its slot free for the next keyval, whose delete callback then got the copy's value.
int copy_deleting_the_original(SCOMM_Comm old, int keyval, void*, void* in, void* out, int* flag) {
  SCOMM_Comm_delete_attr(old, keyval);
  *static_cast<void**>(out) = in;
  *flag = 1;
  return SCOMM_SUCCESS;
}
std::vector<long> deleted_values;
int record_deletion(SCOMM_Comm, int, void* value, void*) {
  deleted_values.push_back(from_value(value));
  return SCOMM_SUCCESS;
}
int reject_deletion(SCOMM_Comm, int, void*, void*) {
  ADD_FAILURE() << "another keyval's delete callback was called";
  return SCOMM_SUCCESS;
}

TEST_F(AttributesTest, ACopyHoldsItsKeyvalWhileItsCallbackDeletesTheOriginal) {
  int keyval = SCOMM_KEYVAL_INVALID, later = SCOMM_KEYVAL_INVALID;
  ASSERT_EQ(SCOMM_Comm_create_keyval(copy_deleting_the_original, record_deletion, &keyval, nullptr),
            SCOMM_SUCCESS);
  SCOMM_Comm original = SCOMM_COMM_NULL, copy = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &original), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_set_attr(original, keyval, as_value(42)), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_free_keyval(&keyval), SCOMM_SUCCESS);  // the attribute keeps it
  deleted_values.clear();
  ASSERT_EQ(SCOMM_Comm_dup(original, &copy), SCOMM_SUCCESS);
  EXPECT_EQ(deleted_values, std::vector<long>{42});  // the original, by its callback
  ASSERT_EQ(SCOMM_Comm_create_keyval(SCOMM_COMM_NULL_COPY_FN, reject_deletion, &later, nullptr),
            SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_free(&copy), SCOMM_SUCCESS);
  EXPECT_EQ(deleted_values, (std::vector<long>{42, 42}));  // the copy, by its own keyval's
  EXPECT_EQ(SCOMM_Comm_free_keyval(&later), SCOMM_SUCCESS);
  EXPECT_EQ(SCOMM_Comm_free(&original), SCOMM_SUCCESS);
}

// A copy callback that makes communicators during SCOMM_Comm_idup (the communicators' table
// grows, its entries move) or frees the parent: the idup found its parent again after the
// callbacks (it read the moved entry before).
std::vector<SCOMM_Comm> made_by_callbacks;
int copy_making_communicators(SCOMM_Comm old, int, void*, void* in, void* out, int* flag) {
  int size = 0;
  SCOMM_Comm_size(old, &size);
  for (int i = 0; i < 64; ++i) {
    SCOMM_Comm range = SCOMM_COMM_NULL;
    if (SCOMM_Comm_create_range(old, 0, size - 1, 1, &range) != SCOMM_SUCCESS) break;
    made_by_callbacks.push_back(range);
  }
  *static_cast<void**>(out) = in;
  *flag = 1;
  return SCOMM_SUCCESS;
}

TEST_F(AttributesTest, CopyCallbacksOfAnIdupMayMakeCommunicators) {
  int keyval = SCOMM_KEYVAL_INVALID;
  ASSERT_EQ(SCOMM_Comm_create_keyval(copy_making_communicators, SCOMM_COMM_NULL_DELETE_FN, &keyval,
                                     nullptr),
            SCOMM_SUCCESS);
  SCOMM_Comm parent = SCOMM_COMM_NULL, copy = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &parent), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_set_errhandler(parent, SCOMM_ERRORS_RETURN), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_set_attr(parent, keyval, as_value(5)), SCOMM_SUCCESS);
  SCOMM_Request request = SCOMM_REQUEST_NULL;
  ASSERT_EQ(SCOMM_Comm_idup(parent, &copy, &request), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Wait(&request, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  EXPECT_EQ(made_by_callbacks.size(), 64u);
  SCOMM_Errhandler handler = SCOMM_ERRHANDLER_NULL;
  ASSERT_EQ(SCOMM_Comm_get_errhandler(copy, &handler), SCOMM_SUCCESS);
  EXPECT_EQ(handler, SCOMM_ERRORS_RETURN);  // the parent's, read after the callbacks
  void* value = nullptr;
  int found = 0;
  ASSERT_EQ(SCOMM_Comm_get_attr(copy, keyval, &value, &found), SCOMM_SUCCESS);
  EXPECT_EQ(found, 1);
  EXPECT_EQ(from_value(value), 5);
  int one = 1, sum = 0;
  ASSERT_EQ(SCOMM_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, copy), SCOMM_SUCCESS);
  EXPECT_EQ(sum, world_size_);
  for (SCOMM_Comm& range : made_by_callbacks) SCOMM_Comm_free(&range);
  made_by_callbacks.clear();
  for (SCOMM_Comm* comm : {&copy, &parent}) SCOMM_Comm_free(comm);
  SCOMM_Comm_free_keyval(&keyval);
}

// MPI's predefined attributes on any communicator: the tag limit scomm publishes, the rest the
// base MPI's on MPI_COMM_WORLD, pointer for pointer.
TEST_F(AttributesTest, PredefinedAttributesAreMpis) {
  SCOMM_Comm last = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, world_size_ - 1, world_size_ - 1, 1, &last),
            SCOMM_SUCCESS);
  const SCOMM_Comm comm = last != SCOMM_COMM_NULL ? last : SCOMM_COMM_WORLD;
  int* tag_ub = nullptr;
  int flag = 0, published = 0;
  ASSERT_EQ(SCOMM_Comm_get_attr(comm, SCOMM_TAG_UB, &tag_ub, &flag), SCOMM_SUCCESS);
  ASSERT_EQ(flag, 1);
  SCOMM_Tag_ub(&published);
  EXPECT_EQ(*tag_ub, published);
  const std::pair<int, int> from_mpi[] = {{SCOMM_HOST, MPI_HOST},
                                          {SCOMM_IO, MPI_IO},
                                          {SCOMM_WTIME_IS_GLOBAL, MPI_WTIME_IS_GLOBAL},
                                          {SCOMM_APPNUM, MPI_APPNUM},
                                          {SCOMM_UNIVERSE_SIZE, MPI_UNIVERSE_SIZE}};
  for (const auto& [keyval, mpi_keyval] : from_mpi) {
    int *ours = nullptr, *theirs = nullptr, mpi_flag = 0;
    ASSERT_EQ(SCOMM_Comm_get_attr(comm, keyval, &ours, &flag), SCOMM_SUCCESS);
    MPI_Comm_get_attr(MPI_COMM_WORLD, mpi_keyval, &theirs, &mpi_flag);
    EXPECT_EQ(flag, mpi_flag) << keyval;
    if (flag != 0 && mpi_flag != 0) {
      EXPECT_EQ(*ours, *theirs) << keyval;
    }
  }
  if (last != SCOMM_COMM_NULL) SCOMM_Comm_free(&last);
}

class AttributeErrorsTest : public AttributesTest {
 protected:
  void SetUp() override {
    AttributesTest::SetUp();
    SCOMM_Comm_set_errhandler(SCOMM_COMM_WORLD, SCOMM_ERRORS_RETURN);
  }
};

// A failing copy callback fails the dup and makes no communicator; a failing delete callback
// fails the free, which leaves the communicator and that attribute; split copies nothing.
TEST_F(AttributeErrorsTest, FailingCallbacksFailTheirCall) {
  ScommApi api;
  SCOMM_Comm comm = api.dup(SCOMM_COMM_WORLD);
  ASSERT_EQ(SCOMM_Comm_set_errhandler(comm, SCOMM_ERRORS_RETURN), SCOMM_SUCCESS);
  api.set(comm, 0, 7);
  api.set(comm, 3, 13);
  int before = 0, after = 0, contexts = 0;
  SCOMM_Comm_live(&before, &contexts);
  SCOMM_Comm copy = SCOMM_COMM_NULL;
  calls.clear();
  EXPECT_EQ(error_class_of(SCOMM_Comm_dup(comm, &copy)), SCOMM_ERR_ARG);
  EXPECT_EQ(copy, SCOMM_COMM_NULL);
  SCOMM_Comm_live(&after, &contexts);
  EXPECT_EQ(after, before);
  EXPECT_EQ(calls, (std::vector<std::string>{"copy 0 7", "copy 3 13", "delete 0 7"}));
  SCOMM_Comm split = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_split(comm, 0, 0, &split), SCOMM_SUCCESS);
  EXPECT_EQ(api.get(split, 0), "none");
  api.free(split);
  EXPECT_EQ(error_class_of(SCOMM_Comm_free(&comm)), SCOMM_ERR_ARG);  // keyval 3's delete fails
  EXPECT_NE(comm, SCOMM_COMM_NULL);
  EXPECT_EQ(api.get(comm, 3), "13");
  // The delete of 13 fails: the value stays.
  EXPECT_EQ(error_class_of(SCOMM_Comm_set_attr(comm, api.keyvals[3], as_value(14))), SCOMM_ERR_ARG);
  EXPECT_EQ(api.get(comm, 3), "13");
}

// Copy callbacks that free their communicator fail its idup (the parent is gone), and delete the
// copies made; a failing delete callback that adds an attribute to its communicator (the list
// grows, its elements move) fails its call, naming its keyval.
int copy_freeing_the_parent(SCOMM_Comm old, int, void*, void* in, void* out, int* flag) {
  SCOMM_Comm gone = old;
  SCOMM_Comm_free(&gone);
  *static_cast<void**>(out) = in;
  *flag = 1;
  return SCOMM_SUCCESS;
}
int other_keyval = SCOMM_KEYVAL_INVALID;
bool deletes_fail = true;
int delete_adding_and_failing(SCOMM_Comm comm, int keyval, void*, void*) {
  if (keyval == other_keyval || !deletes_fail) return SCOMM_SUCCESS;
  for (int i = 0; i < 64; ++i) SCOMM_Comm_set_attr(comm, other_keyval, as_value(i));
  return 5;
}

TEST_F(AttributeErrorsTest, CallbacksThatFreeOrGrowWhatTheirCallUses) {
  int keyval = SCOMM_KEYVAL_INVALID;
  ASSERT_EQ(SCOMM_Comm_create_keyval(copy_freeing_the_parent, record_deletion, &keyval, nullptr),
            SCOMM_SUCCESS);
  SCOMM_Comm parent = SCOMM_COMM_NULL, copy = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &parent), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_set_attr(parent, keyval, as_value(8)), SCOMM_SUCCESS);
  deleted_values.clear();
  SCOMM_Request request = SCOMM_REQUEST_NULL;
  EXPECT_EQ(error_class_of(SCOMM_Comm_idup(parent, &copy, &request)), SCOMM_ERR_COMM);
  EXPECT_EQ(request, SCOMM_REQUEST_NULL);
  EXPECT_EQ(deleted_values, (std::vector<long>{8, 8}));  // the parent's, then the copy's
  SCOMM_Comm_free_keyval(&keyval);

  ASSERT_EQ(SCOMM_Comm_create_keyval(SCOMM_COMM_NULL_COPY_FN, delete_adding_and_failing, &keyval,
                                     nullptr),
            SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_create_keyval(SCOMM_COMM_NULL_COPY_FN, delete_adding_and_failing,
                                     &other_keyval, nullptr),
            SCOMM_SUCCESS);
  SCOMM_Comm comm = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &comm), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_set_errhandler(comm, SCOMM_ERRORS_RETURN), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Comm_set_attr(comm, keyval, as_value(1)), SCOMM_SUCCESS);
  const int code = SCOMM_Comm_delete_attr(comm, keyval);
  EXPECT_EQ(error_class_of(code), SCOMM_ERR_ARG);
  std::string text(SCOMM_MAX_ERROR_STRING, '\0');
  int length = 0;
  SCOMM_Error_string(code, text.data(), &length);
  EXPECT_NE(text.find("keyval " + std::to_string(keyval) + " "), std::string::npos) << text;
  EXPECT_EQ(error_class_of(SCOMM_Comm_set_attr(comm, keyval, as_value(2))), SCOMM_ERR_ARG);
  deletes_fail = false;
  EXPECT_EQ(SCOMM_Comm_free(&comm), SCOMM_SUCCESS);
  for (int* made : {&keyval, &other_keyval}) SCOMM_Comm_free_keyval(made);
}

// A delete callback that frees its own communicator: that free is an error, and no callback
// runs twice (each ran once more, from inside the first). One that deletes its own attribute
// first, the communicator's last, would have the free take the fast path, which once freed the
// communicator under the outer free.
int free_deletions = 0;
int nested_free_class = SCOMM_SUCCESS;
bool drop_own_attribute = false, deleting = false;
int delete_freeing_its_communicator(SCOMM_Comm comm, int keyval, void*, void*) {
  if (deleting) return SCOMM_SUCCESS;  // called by its own SCOMM_Comm_delete_attr
  deleting = true;
  ++free_deletions;
  if (drop_own_attribute) SCOMM_Comm_delete_attr(comm, keyval);
  SCOMM_Comm again = comm;
  nested_free_class = error_class_of(SCOMM_Comm_free(&again));
  deleting = false;
  return SCOMM_SUCCESS;
}

TEST_F(AttributeErrorsTest, ADeleteCallbackCannotFreeItsOwnCommunicator) {
  int keyval = SCOMM_KEYVAL_INVALID;
  ASSERT_EQ(SCOMM_Comm_create_keyval(SCOMM_COMM_NULL_COPY_FN, delete_freeing_its_communicator,
                                     &keyval, nullptr),
            SCOMM_SUCCESS);
  int recorded = SCOMM_KEYVAL_INVALID;
  ASSERT_EQ(SCOMM_Comm_create_keyval(SCOMM_COMM_NULL_COPY_FN, record_deletion, &recorded, nullptr),
            SCOMM_SUCCESS);
  for (const bool dropping : {false, true}) {
    drop_own_attribute = dropping;
    SCOMM_Comm comm = SCOMM_COMM_NULL;
    ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &comm), SCOMM_SUCCESS);
    ASSERT_EQ(SCOMM_Comm_set_errhandler(comm, SCOMM_ERRORS_RETURN), SCOMM_SUCCESS);
    if (!dropping) {
      ASSERT_EQ(SCOMM_Comm_set_attr(comm, recorded, as_value(5)), SCOMM_SUCCESS);
    }
    ASSERT_EQ(SCOMM_Comm_set_attr(comm, keyval, nullptr), SCOMM_SUCCESS);
    int before = 0, after = 0, contexts = 0;
    SCOMM_Comm_live(&before, &contexts);
    deleted_values.clear();
    free_deletions = 0;
    nested_free_class = SCOMM_SUCCESS;
    ASSERT_EQ(SCOMM_Comm_free(&comm), SCOMM_SUCCESS);
    EXPECT_EQ(comm, SCOMM_COMM_NULL);
    EXPECT_EQ(nested_free_class, SCOMM_ERR_COMM);
    EXPECT_EQ(free_deletions, 1);
    EXPECT_EQ(deleted_values, dropping ? std::vector<long>{} : std::vector<long>{5});
    SCOMM_Comm_live(&after, &contexts);
    EXPECT_EQ(after, before - 1);
  }
  for (int* made : {&keyval, &recorded}) SCOMM_Comm_free_keyval(made);
}

TEST_F(AttributeErrorsTest, BadKeyvalsAndHandles) {
  int keyval = SCOMM_KEYVAL_INVALID;
  void* value = nullptr;
  int flag = 0;
  EXPECT_EQ(error_class_of(SCOMM_Comm_set_attr(SCOMM_COMM_WORLD, 12345, nullptr)), SCOMM_ERR_ARG);
  EXPECT_EQ(error_class_of(SCOMM_Comm_get_attr(SCOMM_COMM_WORLD, 12345, &value, &flag)),
            SCOMM_ERR_ARG);
  EXPECT_EQ(error_class_of(SCOMM_Comm_free_keyval(&keyval)), SCOMM_ERR_ARG);
  EXPECT_EQ(error_class_of(SCOMM_Comm_create_keyval(nullptr, nullptr, nullptr, nullptr)),
            SCOMM_ERR_ARG);
  ASSERT_EQ(
      SCOMM_Comm_create_keyval(SCOMM_COMM_DUP_FN, SCOMM_COMM_NULL_DELETE_FN, &keyval, nullptr),
      SCOMM_SUCCESS);
  EXPECT_EQ(error_class_of(SCOMM_Comm_delete_attr(SCOMM_COMM_WORLD, keyval)), SCOMM_ERR_ARG);
  EXPECT_EQ(error_class_of(SCOMM_Comm_set_attr(12345, keyval, nullptr)), SCOMM_ERR_COMM);
  EXPECT_EQ(SCOMM_Comm_get_attr(SCOMM_COMM_WORLD, keyval, &value, &flag), SCOMM_SUCCESS);
  EXPECT_EQ(flag, 0);
  const int stale = keyval;
  ASSERT_EQ(SCOMM_Comm_free_keyval(&keyval), SCOMM_SUCCESS);
  EXPECT_EQ(error_class_of(SCOMM_Comm_set_attr(SCOMM_COMM_WORLD, stale, nullptr)), SCOMM_ERR_ARG);
  int copy = stale;
  EXPECT_EQ(error_class_of(SCOMM_Comm_free_keyval(&copy)), SCOMM_ERR_ARG);
  // Predefined keyvals are read-only.
  int predefined = SCOMM_TAG_UB;
  EXPECT_EQ(error_class_of(SCOMM_Comm_set_attr(SCOMM_COMM_WORLD, predefined, nullptr)),
            SCOMM_ERR_ARG);
  EXPECT_EQ(error_class_of(SCOMM_Comm_delete_attr(SCOMM_COMM_WORLD, SCOMM_HOST)), SCOMM_ERR_ARG);
  EXPECT_EQ(error_class_of(SCOMM_Comm_free_keyval(&predefined)), SCOMM_ERR_ARG);
  EXPECT_EQ(predefined, SCOMM_TAG_UB);
}

}  // namespace
