// Hostile input: long random sequences of communicator, point-to-point (persistent requests and
// matched probes among them) and completion calls whose
// arguments are drawn from valid and invalid values (live, freed, null and made-up handles, ranks
// and tags out of range, negative counts, null and MPI_IN_PLACE buffers, types and pointers). Each
// process works on communicators of its own (ranges of one process, and their splits and
// duplicates), so that no call waits for another process. Every call's outcome is predicted from
// its arguments alone: success where all are valid, else an error of a class that names one of the
// invalid ones -- never a crash, a hang, or success on bad input. Every message carries its
// communicator's serial number, which its receive checks.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <deque>
#include <iterator>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "scomm_fixture.hpp"
#include "smpi_defects.hpp"

namespace {

// What a call's arguments predict: success, or one of these error classes.
struct Expect {
  std::set<int> classes;
  void bad_if(bool condition, int error_class) {
    if (condition) classes.insert(error_class);
  }
  bool valid() const { return classes.empty(); }
};

constexpr int kMaxSend = 4;     // ints a send carries at most
constexpr int kReceive = 8;     // ints every valid receive takes: no message is ever truncated
constexpr int kMadeUp = 12345;  // handles from here on were never given out (1,000 of them)

// The handles of one kind freed in the last kSteps calls. scomm tells a freed handle from a live
// one until its slot has been handed out 256 times again (an 8-bit generation, README); no call
// here makes more than two handles of a kind (persistent starts' internal requests included),
// so none of these can be live again. (Older ones can: drawn from 40 seeds of 10,000 calls, a
// request freed long before named the started request of a persistent receive.)
class RecentlyFreed {
 public:
  void add(int handle, int step) { freed_.emplace_back(step, handle); }
  // One of them, or `none` if there are none.
  int draw(std::mt19937& random, int step, int none) {
    while (!freed_.empty() && freed_.front().first < step - kSteps) freed_.pop_front();
    if (freed_.empty()) return none;
    const auto n = static_cast<int>(freed_.size());
    return freed_[static_cast<std::size_t>(std::uniform_int_distribution<int>(0, n - 1)(random))]
        .second;
  }

 private:
  static constexpr int kSteps = 100;
  std::deque<std::pair<int, int>> freed_;  // step, handle
};

// A call and its drawn arguments, for the failure's message.
std::string text(const char* call, std::initializer_list<int> arguments) {
  std::string s = std::string(call) + "(";
  for (const int a : arguments) s += (s.back() == '(' ? "" : ", ") + std::to_string(a);
  return s + ")";
}

class HostileInputTest : public ScommTest {
 protected:
  void SetUp() override {
    ScommTest::SetUp();
    ASSERT_EQ(SCOMM_Comm_set_errhandler(SCOMM_COMM_WORLD, SCOMM_ERRORS_RETURN), SCOMM_SUCCESS);
    ASSERT_EQ(SCOMM_Tag_ub(&tag_ub_), SCOMM_SUCCESS);
  }

  // `steps` random calls from `seed` (each process its own sequence), then every request
  // completed and every communicator freed.
  void run(unsigned seed, int steps);

 private:
  // A live request: a receive's buffer and its communicator's serial (none for the others), a
  // nonblocking collective's, a persistent one, made on `comm`, inactive or started, or a
  // nonblocking creation's, whose result scomm writes to `created` once it has completed.
  struct Pending {
    std::unique_ptr<int[]> buffer;
    int serial = 0;
    bool collective = false;
    bool persistent = false;
    bool inactive = false;
    SCOMM_Comm comm = SCOMM_COMM_NULL;
    std::unique_ptr<SCOMM_Comm> created = nullptr;
    bool adopted = false;  // the created communicator, by adopt_created()
  };
  static constexpr SCOMM_Comm kNotCreated = -7;  // what `created` holds until then

  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(random_); }
  // A message buffer that names no memory: null or MPI_IN_PLACE (no point-to-point call's).
  void* no_memory() { return pick(2) == 0 ? nullptr : SCOMM_IN_PLACE; }
  int any_of(std::initializer_list<int> values) {
    return *(values.begin() + pick(static_cast<int>(values.size())));
  }
  SCOMM_Comm draw_comm();
  SCOMM_Request draw_request();
  SCOMM_Message draw_message();
  int draw_tag() { return any_of({0, 7, tag_ub_, -1, SCOMM_ANY_TAG, tag_ub_ + 1}); }
  int draw_source() { return any_of({0, SCOMM_ANY_SOURCE, SCOMM_PROC_NULL, 1, -5}); }
  MPI_Datatype draw_type() { return pick(8) == 0 ? MPI_DATATYPE_NULL : MPI_INT; }

  bool live(SCOMM_Comm c) const { return serials_.count(c) != 0; }
  bool live_request(SCOMM_Request r) const { return requests_.count(r) != 0; }
  bool inactive(SCOMM_Request r) const { return live_request(r) && requests_.at(r).inactive; }
  bool valid_tag(int tag, bool receive) const {
    return (tag >= 0 && tag <= tag_ub_) || (receive && tag == SCOMM_ANY_TAG);
  }
  // Every communicator here has one process: rank 0, or no one.
  static bool valid_peer(int rank, bool receive) {
    return rank == 0 || rank == SCOMM_PROC_NULL || (receive && rank == SCOMM_ANY_SOURCE);
  }
  void check(int rc, const Expect& expect, const std::string& call);
  // What the communicator, source and tag of SCOMM_Iprobe or SCOMM_Improbe predict.
  Expect probe_expect(SCOMM_Comm c, int source, int tag) const;
  // What the arguments of SCOMM_Isend (SCOMM_Irecv where `receive`) predict.
  Expect message_expect(SCOMM_Comm c, int count, MPI_Datatype type, bool null_buffer, int peer,
                        int tag, bool null_request, bool receive) const;

  void isend();
  void irecv();
  void start();
  void iprobe();
  void improbe();
  void mrecv();
  void test();
  void test_some() { complete_many(false); }
  void cancel();
  void request_free();
  void create_range();
  void split();
  void dup();
  void free_comm();
  void size_and_rank();
  void bcast();
  void allreduce();
  void sendrecv();
  void wait_some() { complete_many(true); }
  void complete_many(bool wait);
  void ibarrier();
  void icreate();

  void adopt(SCOMM_Comm c) { serials_[c] = next_serial_++; }
  // Adopts the results of the creations that have completed, reported or not (SCOMM_Testall
  // completes them when it reports none).
  void adopt_created();
  void completed(SCOMM_Request r, const SCOMM_Status* status);
  // A receive's buffer holds `count` ints of the communicator of serial `serial` (status given).
  static void check_received(const int* buffer, int serial, const SCOMM_Status& status);
  void drain(SCOMM_Comm c);
  void finish();

  std::mt19937 random_;
  int tag_ub_ = 0;
  int next_serial_ = 1;
  std::map<SCOMM_Comm, int> serials_;  // the live communicators
  RecentlyFreed freed_comms_;
  std::map<SCOMM_Request, Pending> requests_;  // the live requests
  RecentlyFreed freed_requests_;
  std::map<SCOMM_Message, int> messages_;  // probed messages waiting for their receive: serials
  RecentlyFreed received_messages_;
  int step_ = 0;  // calls made, over all runs
  // The buffers of freed receives, which MPI may still fill (until SCOMM_Finalize cancels them).
  std::vector<std::unique_ptr<int[]>> released_buffers_;
  // A send's buffer must not change until it completes: each serial's stays to the end.
  std::map<int, std::unique_ptr<int[]>> send_buffers_;
};

SCOMM_Comm HostileInputTest::draw_comm() {
  const int kind = pick(8);
  if (kind == 0) return SCOMM_COMM_NULL;
  if (kind == 1) return freed_comms_.draw(random_, step_, SCOMM_COMM_NULL);
  if (kind <= 2 || serials_.empty()) {
    const SCOMM_Comm made_up = kMadeUp + pick(1000);
    return made_up == SCOMM_COMM_WORLD || live(made_up) ? SCOMM_COMM_NULL : made_up;
  }
  return std::next(serials_.begin(), pick(static_cast<int>(serials_.size())))->first;
}

SCOMM_Request HostileInputTest::draw_request() {
  const int kind = pick(6);
  if (kind == 0) return SCOMM_REQUEST_NULL;
  if (kind == 1) return freed_requests_.draw(random_, step_, SCOMM_REQUEST_NULL);
  if (kind <= 2 || requests_.empty()) {
    const SCOMM_Request made_up = kMadeUp + pick(1000);
    return live_request(made_up) ? SCOMM_REQUEST_NULL : made_up;
  }
  return std::next(requests_.begin(), pick(static_cast<int>(requests_.size())))->first;
}

SCOMM_Message HostileInputTest::draw_message() {
  const int kind = pick(6);
  if (kind == 0) return SCOMM_MESSAGE_NULL;
  if (kind == 1) return SCOMM_MESSAGE_NO_PROC;
  if (kind == 2) return received_messages_.draw(random_, step_, SCOMM_MESSAGE_NULL);
  if (kind <= 3 || messages_.empty()) {
    const SCOMM_Message made_up = kMadeUp + pick(1000);
    return messages_.count(made_up) ? SCOMM_MESSAGE_NULL : made_up;
  }
  return std::next(messages_.begin(), pick(static_cast<int>(messages_.size())))->first;
}

void HostileInputTest::check(int rc, const Expect& expect, const std::string& call) {
  if (expect.valid()) {
    ASSERT_EQ(rc, SCOMM_SUCCESS) << call << " failed: class " << error_class_of(rc);
    return;
  }
  ASSERT_NE(rc, SCOMM_SUCCESS) << call << " succeeded on bad input";
  ASSERT_EQ(expect.classes.count(error_class_of(rc)), 1u)
      << call << ": class " << error_class_of(rc) << " names none of its bad arguments";
  char message[SCOMM_MAX_ERROR_STRING];
  int length = 0;
  ASSERT_EQ(SCOMM_Error_string(rc, message, &length), SCOMM_SUCCESS);
  ASSERT_GT(length, 0) << call;
}

Expect HostileInputTest::message_expect(SCOMM_Comm c, int count, MPI_Datatype type,
                                        bool null_buffer, int peer, int tag, bool null_request,
                                        bool receive) const {
  Expect expect;
  expect.bad_if(!live(c), SCOMM_ERR_COMM);
  expect.bad_if(count < 0, SCOMM_ERR_COUNT);
  expect.bad_if(type == MPI_DATATYPE_NULL, SCOMM_ERR_TYPE);
  expect.bad_if(null_buffer && count > 0, SCOMM_ERR_BUFFER);
  expect.bad_if(!valid_peer(peer, receive), SCOMM_ERR_RANK);
  expect.bad_if(!valid_tag(tag, receive), SCOMM_ERR_TAG);
  expect.bad_if(null_request, SCOMM_ERR_ARG);
  return expect;
}

void HostileInputTest::isend() {
  const SCOMM_Comm c = draw_comm();
  const int count = any_of({0, 1, kMaxSend, -1});
  const bool null_buffer = pick(8) == 0, null_request = pick(16) == 0;
  const MPI_Datatype type = draw_type();
  const int dest = any_of({0, 0, SCOMM_PROC_NULL, 1, -5, SCOMM_ANY_SOURCE});
  const int tag = draw_tag();
  const Expect expect = message_expect(c, count, type, null_buffer, dest, tag, null_request, false);
  const int serial = live(c) ? serials_[c] : 0;
  std::unique_ptr<int[]>& buffer = send_buffers_[serial];
  if (!buffer) {
    buffer = std::make_unique<int[]>(kMaxSend);
    std::fill_n(buffer.get(), kMaxSend, serial);
  }
  const bool persistent = pick(4) == 0;
  SCOMM_Request r = SCOMM_REQUEST_NULL;
  check(
      (persistent ? SCOMM_Send_init : SCOMM_Isend)(null_buffer ? no_memory() : buffer.get(), count,
                                                   type, dest, tag, c, null_request ? nullptr : &r),
      expect,
      text(persistent ? "SCOMM_Send_init" : "SCOMM_Isend",
           {count, dest, tag, c, null_buffer, null_request}));
  if (expect.valid()) requests_[r] = Pending{nullptr, 0, false, persistent, persistent, c};
}

void HostileInputTest::irecv() {
  const SCOMM_Comm c = draw_comm();
  const int count = any_of({kReceive, kReceive, -1});
  const bool null_buffer = pick(8) == 0, null_request = pick(16) == 0;
  const MPI_Datatype type = draw_type();
  const int source = draw_source();
  const int tag = draw_tag();
  const Expect expect =
      message_expect(c, count, type, null_buffer, source, tag, null_request, true);
  const bool persistent = pick(4) == 0;
  Pending receive{std::make_unique<int[]>(kReceive),
                  live(c) ? serials_[c] : 0,
                  false,
                  persistent,
                  persistent,
                  c};
  SCOMM_Request r = SCOMM_REQUEST_NULL;
  check((persistent ? SCOMM_Recv_init : SCOMM_Irecv)(
            null_buffer ? no_memory() : receive.buffer.get(), count, type, source, tag, c,
            null_request ? nullptr : &r),
        expect,
        text(persistent ? "SCOMM_Recv_init" : "SCOMM_Irecv",
             {count, source, tag, c, null_buffer, null_request}));
  if (expect.valid()) requests_[r] = std::move(receive);
}

// Starts a drawn request: only an inactive persistent one starts, also after its communicator
// was freed (MPI's rule). But for a send: no receive could take its message then, which MPICH
// holds the send for (and the message would outlive the communicator).
void HostileInputTest::start() {
  SCOMM_Request r = draw_request();
  if (inactive(r) && !live(requests_.at(r).comm) && !requests_.at(r).buffer) return;
  const bool null_pointer = pick(16) == 0;
  Expect expect;
  expect.bad_if(!inactive(r), SCOMM_ERR_REQUEST);
  expect.bad_if(null_pointer, SCOMM_ERR_ARG);
  const SCOMM_Request given = r;
  check(SCOMM_Start(null_pointer ? nullptr : &r), expect, text("SCOMM_Start", {r, null_pointer}));
  ASSERT_EQ(r, given);
  if (expect.valid()) requests_.at(r).inactive = false;
}

Expect HostileInputTest::probe_expect(SCOMM_Comm c, int source, int tag) const {
  Expect expect;
  expect.bad_if(!live(c), SCOMM_ERR_COMM);
  expect.bad_if(!valid_peer(source, true), SCOMM_ERR_RANK);
  expect.bad_if(!valid_tag(tag, true), SCOMM_ERR_TAG);
  return expect;
}

void HostileInputTest::iprobe() {
  const SCOMM_Comm c = draw_comm();
  const int source = draw_source();
  const int tag = draw_tag();
  const bool null_flag = pick(16) == 0;
  Expect expect = probe_expect(c, source, tag);
  expect.bad_if(null_flag, SCOMM_ERR_ARG);
  int flag = 0;
  check(SCOMM_Iprobe(source, tag, c, null_flag ? nullptr : &flag, SCOMM_STATUS_IGNORE), expect,
        text("SCOMM_Iprobe", {source, tag, c, null_flag}));
}

// A matched probe: a message found leaves matching for its receive (SCOMM_Mrecv, SCOMM_Imrecv).
void HostileInputTest::improbe() {
  const SCOMM_Comm c = draw_comm();
  const int source = draw_source();
  const int tag = draw_tag();
  const bool null_flag = pick(16) == 0, null_message = pick(16) == 0;
  Expect expect = probe_expect(c, source, tag);
  expect.bad_if(null_flag || null_message, SCOMM_ERR_ARG);
  int flag = 0;
  SCOMM_Message message = SCOMM_MESSAGE_NULL;
  check(SCOMM_Improbe(source, tag, c, null_flag ? nullptr : &flag,
                      null_message ? nullptr : &message, SCOMM_STATUS_IGNORE),
        expect, text("SCOMM_Improbe", {source, tag, c, null_flag, null_message}));
  if (!expect.valid() || !flag) return;
  if (source == SCOMM_PROC_NULL) {
    ASSERT_EQ(message, SCOMM_MESSAGE_NO_PROC);
    return;
  }
  ASSERT_EQ(messages_.count(message), 0u);
  messages_[message] = serials_[c];
}

// The receive of a drawn message handle, blocking or not: a failed call keeps the message.
void HostileInputTest::mrecv() {
  SCOMM_Message message = draw_message();
  const int count = any_of({kReceive, kReceive, -1});
  const bool null_buffer = pick(8) == 0, nonblocking = pick(2) == 0;
  const bool null_request = nonblocking && pick(16) == 0;
  const MPI_Datatype type = draw_type();
  const bool waiting = messages_.count(message) != 0;
  Expect expect;
  expect.bad_if(count < 0, SCOMM_ERR_COUNT);
  expect.bad_if(type == MPI_DATATYPE_NULL, SCOMM_ERR_TYPE);
  expect.bad_if(null_buffer && count > 0, SCOMM_ERR_BUFFER);
  expect.bad_if(!waiting && message != SCOMM_MESSAGE_NO_PROC, SCOMM_ERR_REQUEST);
  expect.bad_if(null_request, SCOMM_ERR_ARG);
  const SCOMM_Message given = message;
  Pending receive{std::make_unique<int[]>(kReceive), waiting ? messages_.at(message) : 0};
  SCOMM_Request r = SCOMM_REQUEST_NULL;
  SCOMM_Status status;
  void* const buffer = null_buffer ? no_memory() : receive.buffer.get();
  check(nonblocking ? SCOMM_Imrecv(buffer, count, type, &message, null_request ? nullptr : &r)
                    : SCOMM_Mrecv(buffer, count, type, &message, &status),
        expect, text(nonblocking ? "SCOMM_Imrecv" : "SCOMM_Mrecv", {given, count, null_buffer}));
  if (!expect.valid()) {
    ASSERT_EQ(message, given) << "a failed receive let go of its message";
    return;
  }
  ASSERT_EQ(message, SCOMM_MESSAGE_NULL);
  if (waiting) {
    messages_.erase(given);
    received_messages_.add(given, step_);
  }
  if (nonblocking) {
    requests_[r] = std::move(receive);
  } else if (waiting) {
    ASSERT_NO_FATAL_FAILURE(check_received(receive.buffer.get(), receive.serial, status));
  }
}

void HostileInputTest::check_received(const int* buffer, int serial, const SCOMM_Status& status) {
  if (status.SCOMM_SOURCE != 0) return;  // from SCOMM_PROC_NULL, or cancelled
  int count = 0;
  ASSERT_EQ(SCOMM_Get_count(&status, MPI_INT, &count), SCOMM_SUCCESS);
  for (int i = 0; i < count; ++i)
    ASSERT_EQ(buffer[i], serial) << "a message of another communicator arrived";
}

// A completed request's receive: the message came from its own communicator. A persistent
// request stays, inactive; an inactive one's completion changes nothing.
void HostileInputTest::completed(SCOMM_Request r, const SCOMM_Status* status) {
  const auto it = requests_.find(r);
  ASSERT_NE(it, requests_.end());
  Pending& request = it->second;
  if (request.buffer && !request.inactive && status != SCOMM_STATUS_IGNORE) {
    ASSERT_NO_FATAL_FAILURE(check_received(request.buffer.get(), request.serial, *status));
  }
  if (request.persistent) {
    request.inactive = true;
    return;
  }
  if (request.created) {
    ASSERT_NE(*request.created, kNotCreated) << "a creation completed without its result";
    adopt_created();
  }
  requests_.erase(it);
  freed_requests_.add(r, step_);
}

void HostileInputTest::adopt_created() {
  for (auto& [r, pending] : requests_) {
    if (!pending.created || *pending.created == kNotCreated || pending.adopted) continue;
    pending.adopted = true;
    if (*pending.created != SCOMM_COMM_NULL) {
      ASSERT_FALSE(live(*pending.created));
      adopt(*pending.created);
    }
  }
}

void HostileInputTest::test() {
  SCOMM_Request r = draw_request();
  const SCOMM_Request given = r;
  const bool null_flag = pick(16) == 0;
  Expect expect;
  expect.bad_if(r != SCOMM_REQUEST_NULL && !live_request(r), SCOMM_ERR_REQUEST);
  expect.bad_if(null_flag, SCOMM_ERR_ARG);
  int flag = 0;
  SCOMM_Status status;
  check(SCOMM_Test(&r, null_flag ? nullptr : &flag, &status), expect,
        text("SCOMM_Test", {given, null_flag}));
  if (expect.valid() && flag && given != SCOMM_REQUEST_NULL) {
    ASSERT_EQ(r, requests_.at(given).persistent ? given : SCOMM_REQUEST_NULL);
    completed(given, &status);
  }
}

void HostileInputTest::cancel() {
  SCOMM_Request r = draw_request();
  if (smpi_defect::kCancelAmongSends && live_request(r) && requests_.at(r).buffer) return;
  const bool null_pointer = pick(16) == 0;
  Expect expect;
  expect.bad_if(
      !live_request(r) || requests_.at(r).collective || requests_.at(r).created || inactive(r),
      SCOMM_ERR_REQUEST);
  expect.bad_if(null_pointer, SCOMM_ERR_ARG);
  check(SCOMM_Cancel(null_pointer ? nullptr : &r), expect, text("SCOMM_Cancel", {r, null_pointer}));
}

// Frees a request, active or not (a freed receive may still take its communicator's
// messages: it holds that communicator's context until it does).
void HostileInputTest::request_free() {
  SCOMM_Request r = draw_request();
  const SCOMM_Request given = r;
  const bool null_pointer = pick(16) == 0;
  Expect expect;
  expect.bad_if(!live_request(r) || requests_.at(r).collective ||
                    (requests_.at(r).created && *requests_.at(r).created == kNotCreated),
                SCOMM_ERR_REQUEST);
  expect.bad_if(null_pointer, SCOMM_ERR_ARG);
  check(SCOMM_Request_free(null_pointer ? nullptr : &r), expect,
        text("SCOMM_Request_free", {given, null_pointer}));
  if (!expect.valid()) return;
  ASSERT_EQ(r, SCOMM_REQUEST_NULL);
  if (requests_.at(given).buffer)
    released_buffers_.push_back(std::move(requests_.at(given).buffer));
  requests_.erase(given);
  freed_requests_.add(given, step_);
}

void HostileInputTest::create_range() {
  const SCOMM_Comm c = draw_comm();
  const int first = any_of({0, 0, 1, -1}), last = any_of({0, 0, 1, -1});
  const int stride = any_of({1, 1, -1, 2, 0});
  const bool null_result = pick(16) == 0;
  Expect expect;
  expect.bad_if(!live(c), SCOMM_ERR_COMM);
  // MPI's range triplet on one process: `last` need not be a rank, the ranks computed must be
  // (0 alone).
  const bool runs_away = stride != 0 && last != first && (last > first) != (stride > 0);
  const bool second_rank = stride != 0 && !runs_away && (last - first) / stride != 0;
  expect.bad_if(first != 0 || second_rank, SCOMM_ERR_RANK);
  expect.bad_if(stride == 0 || runs_away, SCOMM_ERR_ARG);
  expect.bad_if(null_result, SCOMM_ERR_ARG);
  SCOMM_Comm created = SCOMM_COMM_NULL;
  check(SCOMM_Comm_create_range(c, first, last, stride, null_result ? nullptr : &created), expect,
        text("SCOMM_Comm_create_range", {c, first, last, stride, null_result}));
  if (!expect.valid()) return;
  ASSERT_NE(created, SCOMM_COMM_NULL);
  ASSERT_FALSE(live(created));
  adopt(created);
}

void HostileInputTest::split() {
  const SCOMM_Comm c = draw_comm();
  const int color = any_of({0, 3, SCOMM_UNDEFINED, -2});
  const bool null_result = pick(16) == 0;
  Expect expect;
  expect.bad_if(!live(c), SCOMM_ERR_COMM);
  expect.bad_if(color < 0 && color != SCOMM_UNDEFINED, SCOMM_ERR_ARG);
  expect.bad_if(null_result, SCOMM_ERR_ARG);
  SCOMM_Comm created = SCOMM_COMM_NULL;
  check(SCOMM_Comm_split(c, color, pick(5) - 2, null_result ? nullptr : &created), expect,
        text("SCOMM_Comm_split", {c, color, null_result}));
  if (!expect.valid()) return;
  ASSERT_EQ(created == SCOMM_COMM_NULL, color == SCOMM_UNDEFINED);
  if (created != SCOMM_COMM_NULL) adopt(created);
}

void HostileInputTest::dup() {
  const SCOMM_Comm c = draw_comm();
  const bool null_result = pick(16) == 0;
  Expect expect;
  expect.bad_if(!live(c), SCOMM_ERR_COMM);
  expect.bad_if(null_result, SCOMM_ERR_ARG);
  SCOMM_Comm created = SCOMM_COMM_NULL;
  check(SCOMM_Comm_dup(c, null_result ? nullptr : &created), expect,
        text("SCOMM_Comm_dup", {c, null_result}));
  if (expect.valid()) adopt(created);
}

// Takes every message still waiting on c (a message left behind would be the user's error, and
// would reach a later communicator of the same context).
void HostileInputTest::drain(SCOMM_Comm c) {
  for (;;) {
    int flag = 0;
    SCOMM_Status status;
    ASSERT_EQ(SCOMM_Iprobe(SCOMM_ANY_SOURCE, SCOMM_ANY_TAG, c, &flag, &status), SCOMM_SUCCESS);
    if (!flag) return;
    int buffer[kReceive];
    int count = 0;
    ASSERT_EQ(
        SCOMM_Recv(buffer, kReceive, MPI_INT, status.SCOMM_SOURCE, status.SCOMM_TAG, c, &status),
        SCOMM_SUCCESS);
    ASSERT_EQ(SCOMM_Get_count(&status, MPI_INT, &count), SCOMM_SUCCESS);
    for (int i = 0; i < count; ++i)
      ASSERT_EQ(buffer[i], serials_[c]) << "a message of another communicator arrived";
  }
}

void HostileInputTest::free_comm() {
  SCOMM_Comm c = pick(16) == 0 ? SCOMM_COMM_WORLD : draw_comm();
  if (live(c) && serials_.size() == 1) return;  // the last: the others derive from it
  const SCOMM_Comm given = c;
  Expect expect;
  expect.bad_if(!live(c), SCOMM_ERR_COMM);
  if (live(c)) drain(c);
  check(SCOMM_Comm_free(&c), expect, text("SCOMM_Comm_free", {given}));
  if (!expect.valid()) return;
  ASSERT_EQ(c, SCOMM_COMM_NULL);
  serials_.erase(given);
  freed_comms_.add(given, step_);
}

void HostileInputTest::size_and_rank() {
  const SCOMM_Comm c = draw_comm();
  Expect expect;
  expect.bad_if(!live(c), SCOMM_ERR_COMM);
  int size = -1, rank = -1;
  check(SCOMM_Comm_size(c, &size), expect, text("SCOMM_Comm_size", {c}));
  check(SCOMM_Comm_rank(c, &rank), expect, text("SCOMM_Comm_rank", {c}));
  if (expect.valid()) {
    ASSERT_TRUE(size == 1 && rank == 0);
  }
}

void HostileInputTest::bcast() {
  const SCOMM_Comm c = draw_comm();
  const int count = any_of({0, 3, -1});
  const int root = any_of({0, 0, 1, -1, SCOMM_PROC_NULL});
  const bool null_buffer = pick(8) == 0;
  const MPI_Datatype type = draw_type();
  Expect expect;
  expect.bad_if(!live(c), SCOMM_ERR_COMM);
  expect.bad_if(count < 0, SCOMM_ERR_COUNT);
  expect.bad_if(type == MPI_DATATYPE_NULL, SCOMM_ERR_TYPE);
  expect.bad_if(null_buffer && count > 0, SCOMM_ERR_BUFFER);
  expect.bad_if(root != 0, SCOMM_ERR_ROOT);
  int buffer[3] = {7, 8, 9};
  check(SCOMM_Bcast(null_buffer ? nullptr : buffer, count, type, root, c), expect,
        text("SCOMM_Bcast", {count, root, c, null_buffer}));
}

// Send and receive buffers apart, aliased (MPI forbids it without SCOMM_IN_PLACE), in place, or
// null, or SCOMM_IN_PLACE as the receive buffer; MPI_MAXLOC, which MPI defines on pairs only.
void HostileInputTest::allreduce() {
  const SCOMM_Comm c = draw_comm();
  const int count = any_of({0, 3, -1});
  const MPI_Datatype type = draw_type();
  const int op_drawn = pick(6);  // 0 MPI_OP_NULL, 1 MPI_MAXLOC, 2 MPI_BAND, 3-5 MPI_SUM
  const MPI_Op op =
      std::array{
          MPI_OP_NULL, MPI_MAXLOC, MPI_BAND, MPI_SUM, MPI_SUM, MPI_SUM}[static_cast<std::size_t>(
          op_drawn)];
  // 0-1 apart, 2 aliased, 3 in place, 4 a null send buffer, 5 SCOMM_IN_PLACE received into
  const int layout = pick(6);
  Expect expect;
  expect.bad_if(!live(c), SCOMM_ERR_COMM);
  expect.bad_if(count < 0, SCOMM_ERR_COUNT);
  expect.bad_if(type == MPI_DATATYPE_NULL, SCOMM_ERR_TYPE);
  expect.bad_if(op == MPI_OP_NULL || op == MPI_MAXLOC, SCOMM_ERR_OP);
  expect.bad_if(((layout == 2 || layout == 4) && count > 0) || layout == 5, SCOMM_ERR_BUFFER);
  int in[3] = {1, 2, 3}, out[3] = {};
  const void* send = layout == 2 ? out : layout == 3 ? SCOMM_IN_PLACE : layout == 4 ? nullptr : in;
  check(SCOMM_Allreduce(send, layout == 5 ? SCOMM_IN_PLACE : out, count, type, op, c), expect,
        text("SCOMM_Allreduce", {count, layout, c, op_drawn}));
  if (expect.valid() && layout <= 1) {
    for (int i = 0; i < count; ++i) ASSERT_EQ(out[i], in[i]);  // one process: its own data
  }
}

// A send to oneself and its receive in one call. A valid one runs on a child of its own, made
// for it: no receive posted before, nor message sent before, can take part.
void HostileInputTest::sendrecv() {
  const SCOMM_Comm c = draw_comm();
  const int dest = any_of({0, 0, SCOMM_PROC_NULL, 1});
  const int source = any_of({0, 0, SCOMM_ANY_SOURCE, -5});
  const int sendtag = any_of({0, 9, -1}), recvtag = any_of({0, 9, SCOMM_ANY_TAG, tag_ub_ + 1});
  Expect expect;
  expect.bad_if(!live(c), SCOMM_ERR_COMM);
  expect.bad_if(!valid_peer(dest, false) || !valid_peer(source, true), SCOMM_ERR_RANK);
  expect.bad_if(!valid_tag(sendtag, false) || !valid_tag(recvtag, true), SCOMM_ERR_TAG);
  const bool matches =
      dest == 0 && source != SCOMM_PROC_NULL && (recvtag == SCOMM_ANY_TAG || recvtag == sendtag);
  if (expect.valid() && !matches) return;  // it would wait forever
  SCOMM_Comm own = c;
  if (expect.valid()) {
    ASSERT_EQ(SCOMM_Comm_create_range(c, 0, 0, 1, &own), SCOMM_SUCCESS);
  }
  const int sent = 40 + pick(10);
  int got = -1;
  check(SCOMM_Sendrecv(&sent, 1, MPI_INT, dest, sendtag, &got, 1, MPI_INT, source, recvtag, own,
                       SCOMM_STATUS_IGNORE),
        expect, text("SCOMM_Sendrecv", {dest, sendtag, source, recvtag, c}));
  if (!expect.valid()) return;
  ASSERT_EQ(got, sent);
  ASSERT_EQ(SCOMM_Comm_free(&own), SCOMM_SUCCESS);
}

// SCOMM_Testall, _any or _some (SCOMM_Waitall, _any or _some where `wait`) over one to four
// drawn requests. A wait takes no live request but nonblocking collectives of one process, which
// complete at once, and inactive persistent ones: nothing may complete the others.
void HostileInputTest::complete_many(bool wait) {
  std::vector<SCOMM_Request> array;
  for (int k = 1 + pick(4); k > 0; --k) {
    const SCOMM_Request r = draw_request();
    if (!wait || !live_request(r) || requests_.at(r).collective || requests_.at(r).created ||
        inactive(r))
      array.push_back(r);
  }
  if (array.empty()) return;
  const std::vector<SCOMM_Request> given = array;
  Expect expect;
  std::set<SCOMM_Request> seen;
  for (const SCOMM_Request r : given) {
    if (r == SCOMM_REQUEST_NULL) continue;
    // An inactive persistent request counts as SCOMM_REQUEST_NULL there, also given twice.
    expect.bad_if(!live_request(r) || (!inactive(r) && !seen.insert(r).second), SCOMM_ERR_REQUEST);
  }
  const int n = static_cast<int>(array.size());
  SCOMM_Request* const a = array.data();
  int flag = 0, index = SCOMM_UNDEFINED, outcount = 0;
  std::vector<int> indices(array.size());
  std::vector<SCOMM_Status> out(array.size()), by_index(array.size());
  const int which = pick(3);
  int rc = SCOMM_SUCCESS;
  std::vector<int> done;  // the indices of the requests completed
  if (which == 0) {
    rc = wait ? SCOMM_Waitall(n, a, out.data()) : SCOMM_Testall(n, a, &flag, out.data());
    if (wait || flag)
      for (int i = 0; i < n; ++i) done.push_back(i);
    by_index = out;
  } else if (which == 1) {
    rc = wait ? SCOMM_Waitany(n, a, &index, out.data())
              : SCOMM_Testany(n, a, &index, &flag, out.data());
    if ((wait || flag) && index != SCOMM_UNDEFINED) done.push_back(index);
  } else {
    rc = wait ? SCOMM_Waitsome(n, a, &outcount, indices.data(), out.data())
              : SCOMM_Testsome(n, a, &outcount, indices.data(), out.data());
    done.assign(indices.begin(), indices.begin() + std::max(outcount, 0));  // UNDEFINED: none
  }
  if (which != 0)
    for (std::size_t k = 0; k < done.size(); ++k)
      by_index[static_cast<std::size_t>(done[k])] = out[k];
  std::string call = text(wait ? "SCOMM_Wait{all,any,some}" : "SCOMM_Test{all,any,some}", {which});
  for (const SCOMM_Request r : given) call += " " + std::to_string(r);
  check(rc, expect, call);
  if (!expect.valid()) {
    ASSERT_EQ(array, given) << "a failed call changed its requests";
    return;
  }
  for (const int i : done) {
    const auto k = static_cast<std::size_t>(i);
    if (given[k] == SCOMM_REQUEST_NULL) continue;
    ASSERT_EQ(array[k], requests_.at(given[k]).persistent ? given[k] : SCOMM_REQUEST_NULL);
    completed(given[k], &by_index[k]);
  }
}

void HostileInputTest::ibarrier() {
  const SCOMM_Comm c = draw_comm();
  const bool null_request = pick(16) == 0;
  Expect expect;
  expect.bad_if(!live(c), SCOMM_ERR_COMM);
  expect.bad_if(null_request, SCOMM_ERR_ARG);
  SCOMM_Request r = SCOMM_REQUEST_NULL;
  check(SCOMM_Ibarrier(c, null_request ? nullptr : &r), expect,
        text("SCOMM_Ibarrier", {c, null_request}));
  if (expect.valid()) requests_[r] = Pending{nullptr, 0, true};
}

// SCOMM_Comm_idup or SCOMM_Comm_isplit: on a communicator of one process, each completes alone.
void HostileInputTest::icreate() {
  const SCOMM_Comm c = draw_comm();
  const bool split = pick(2) == 0;
  const int color = split ? any_of({0, 3, SCOMM_UNDEFINED, -2}) : 0;
  const bool null_result = pick(16) == 0, null_request = pick(16) == 0;
  Expect expect;
  expect.bad_if(!live(c), SCOMM_ERR_COMM);
  expect.bad_if(color < 0 && color != SCOMM_UNDEFINED, SCOMM_ERR_ARG);
  expect.bad_if(null_result || null_request, SCOMM_ERR_ARG);
  Pending creation;
  creation.created = std::make_unique<SCOMM_Comm>(kNotCreated);
  SCOMM_Comm* const out = null_result ? nullptr : creation.created.get();
  SCOMM_Request r = SCOMM_REQUEST_NULL;
  SCOMM_Request* const request = null_request ? nullptr : &r;
  check(
      split ? SCOMM_Comm_isplit(c, color, pick(3), out, request) : SCOMM_Comm_idup(c, out, request),
      expect,
      text(split ? "SCOMM_Comm_isplit" : "SCOMM_Comm_idup", {c, color, null_result, null_request}));
  if (expect.valid()) requests_[r] = std::move(creation);
}

// Every message is taken (a send to oneself completes only then in MPICH), the receives that
// nothing matched are cancelled, every request completes and is freed, and every communicator
// is freed.
void HostileInputTest::finish() {
  for (const auto& [waiting, serial] : messages_) {
    int buffer[kReceive];
    SCOMM_Message message = waiting;
    SCOMM_Status status;
    ASSERT_EQ(SCOMM_Mrecv(buffer, kReceive, MPI_INT, &message, &status), SCOMM_SUCCESS);
    ASSERT_NO_FATAL_FAILURE(check_received(buffer, serial, status));
  }
  messages_.clear();
  for (auto& [c, serial] : serials_) drain(c);
  for (auto& [r, pending] : requests_) {
    SCOMM_Request request = r;
    if (!pending.inactive) {
      if (pending.buffer) {
        ASSERT_EQ(SCOMM_Cancel(&request), SCOMM_SUCCESS);
      }
      SCOMM_Status status;
      ASSERT_EQ(SCOMM_Wait(&request, &status), SCOMM_SUCCESS);
      if (pending.created) adopt_created();
      int cancelled = 0;
      ASSERT_EQ(SCOMM_Test_cancelled(&status, &cancelled), SCOMM_SUCCESS);
      if (pending.buffer && !cancelled) {
        ASSERT_NO_FATAL_FAILURE(check_received(pending.buffer.get(), pending.serial, status));
      }
    }
    if (pending.persistent) {
      ASSERT_EQ(SCOMM_Request_free(&request), SCOMM_SUCCESS);
    }
  }
  requests_.clear();
  for (auto& [c, serial] : serials_) {
    SCOMM_Comm comm = c;
    ASSERT_EQ(SCOMM_Comm_free(&comm), SCOMM_SUCCESS);
  }
  serials_.clear();
}

void HostileInputTest::run(unsigned seed, int steps) {
  random_.seed(seed * 1000 + static_cast<unsigned>(world_rank_));
  // Made from the world by every process together, once (a creation that runs out of derived
  // contexts allocates over its parent); all the others derive from this one and its children.
  SCOMM_Comm self = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, world_rank_, world_rank_, 1, &self),
            SCOMM_SUCCESS);
  adopt(self);
  using Call = void (HostileInputTest::*)();
  const Call calls[] = {&HostileInputTest::isend,         &HostileInputTest::isend,
                        &HostileInputTest::irecv,         &HostileInputTest::irecv,
                        &HostileInputTest::iprobe,        &HostileInputTest::test,
                        &HostileInputTest::test,          &HostileInputTest::test_some,
                        &HostileInputTest::cancel,        &HostileInputTest::request_free,
                        &HostileInputTest::create_range,  &HostileInputTest::split,
                        &HostileInputTest::dup,           &HostileInputTest::free_comm,
                        &HostileInputTest::size_and_rank, &HostileInputTest::bcast,
                        &HostileInputTest::allreduce,     &HostileInputTest::sendrecv,
                        &HostileInputTest::wait_some,     &HostileInputTest::ibarrier,
                        &HostileInputTest::start,         &HostileInputTest::improbe,
                        &HostileInputTest::mrecv,         &HostileInputTest::icreate};
  for (int step = 0; step < steps && !HasFatalFailure(); ++step, ++step_) {
    (this->*calls[pick(static_cast<int>(std::size(calls)))])();
    adopt_created();
  }
  if (!HasFatalFailure()) finish();
}

// Seeds 1-3 of 3,000 calls each; a soak runs SCOMM_HOSTILE_RUNS=N more from seed
// SCOMM_HOSTILE_FIRST_SEED (100 unless told), of SCOMM_HOSTILE_STEPS calls (10,000 unless told).
// A failure names its seed.
TEST_F(HostileInputTest, RandomCallsOnOwnCommunicatorsFailOnlyAndAlwaysOnBadArguments) {
  const auto setting = [](const char* name, int otherwise) {
    const char* value = std::getenv(name);
    return value != nullptr ? std::atoi(value) : otherwise;
  };
  std::vector<std::pair<unsigned, int>> runs{{1, 3000}, {2, 3000}, {3, 3000}};
  const auto first = static_cast<unsigned>(setting("SCOMM_HOSTILE_FIRST_SEED", 100));
  for (int i = 0; i < setting("SCOMM_HOSTILE_RUNS", 0); ++i)
    runs.emplace_back(first + static_cast<unsigned>(i), setting("SCOMM_HOSTILE_STEPS", 10000));
  for (const auto& [seed, steps] : runs) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    run(seed, steps);
    if (HasFatalFailure()) return;
  }
}

}  // namespace
