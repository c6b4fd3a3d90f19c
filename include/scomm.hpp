// scomm's C++ interface: owning handles over the C API (scomm.h), element types deduced from
// contiguous ranges, and failures thrown as scomm::Exception instead of returned as codes.
// Header-only, so it adds nothing to the library's ABI:
//
//   scomm::Session session(argc, argv);                  // MPI_Init (if needed) + SCOMM_Init
//   scomm::Communicator world = scomm::Communicator::world();
//   scomm::Communicator half = world.create_range(0, world.size() / 2 - 1);  // local, O(1)
//   if (half) {
//     std::vector<double> v(100, half.rank());
//     half.allreduce_in_place(v, MPI_SUM);
//   }
#pragma once

#include <mpi.h>

#include <complex>
#include <cstdint>
#include <optional>
#include <ranges>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "scomm.h"

namespace scomm {

// A failed scomm call: its MPI-style error code, class and text.
class Exception : public std::runtime_error {
 public:
  explicit Exception(int code) : std::runtime_error(text_of(code)), code_(code) {}
  int code() const noexcept { return code_; }
  int error_class() const noexcept {
    int error_class = code_;
    SCOMM_Error_class(code_, &error_class);
    return error_class;
  }

 private:
  static std::string text_of(int code) {
    char text[SCOMM_MAX_ERROR_STRING];
    int length = 0;
    if (SCOMM_Error_string(code, text, &length) != SCOMM_SUCCESS) return "scomm error";
    return std::string(text, static_cast<std::size_t>(length));
  }
  int code_;
};

// Throws the Exception of a failed call.
inline void check(int code) {
  if (code != SCOMM_SUCCESS) throw Exception(code);
}

// The MPI datatype of a C++ element type.
template <typename T>
MPI_Datatype datatype() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, char>)
    return MPI_CHAR;
  else if constexpr (std::is_same_v<U, signed char>)
    return MPI_SIGNED_CHAR;
  else if constexpr (std::is_same_v<U, unsigned char> || std::is_same_v<U, std::byte>)
    return MPI_UNSIGNED_CHAR;
  else if constexpr (std::is_same_v<U, short>)
    return MPI_SHORT;
  else if constexpr (std::is_same_v<U, unsigned short>)
    return MPI_UNSIGNED_SHORT;
  else if constexpr (std::is_same_v<U, int>)
    return MPI_INT;
  else if constexpr (std::is_same_v<U, unsigned>)
    return MPI_UNSIGNED;
  else if constexpr (std::is_same_v<U, long>)
    return MPI_LONG;
  else if constexpr (std::is_same_v<U, unsigned long>)
    return MPI_UNSIGNED_LONG;
  else if constexpr (std::is_same_v<U, long long>)
    return MPI_LONG_LONG;
  else if constexpr (std::is_same_v<U, unsigned long long>)
    return MPI_UNSIGNED_LONG_LONG;
  else if constexpr (std::is_same_v<U, float>)
    return MPI_FLOAT;
  else if constexpr (std::is_same_v<U, double>)
    return MPI_DOUBLE;
  else if constexpr (std::is_same_v<U, long double>)
    return MPI_LONG_DOUBLE;
  else if constexpr (std::is_same_v<U, bool>)
    return MPI_CXX_BOOL;
  else if constexpr (std::is_same_v<U, std::complex<double>>)
    return MPI_C_DOUBLE_COMPLEX;  // same layout; SMPI 3.32 misdeclares MPI_CXX_DOUBLE_COMPLEX
  else
    static_assert(sizeof(U) == 0, "no MPI datatype for this element type");
}

// MPI and scomm for the lifetime of the object: initializes MPI unless the program already
// has, and finalizes what it initialized.
class Session {
 public:
  Session(int& argc, char**& argv) {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized == 0) {
      if (MPI_Init(&argc, &argv) != MPI_SUCCESS) throw std::runtime_error("MPI_Init failed");
      owns_mpi_ = true;
    }
    check(SCOMM_Init());
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session() {
    SCOMM_Finalize();
    if (owns_mpi_) MPI_Finalize();
  }

 private:
  bool owns_mpi_ = false;
};

// "scomm X.Y.Z on " and the base MPI's library version (SCOMM_Get_library_version).
inline std::string library_version() {
  char text[SCOMM_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  check(SCOMM_Get_library_version(text, &length));
  return std::string(text, static_cast<std::size_t>(length));
}

// A nonblocking operation; waits in its destructor if nobody did (the buffers it uses must
// outlive it).
class Request {
 public:
  Request() = default;
  explicit Request(SCOMM_Request handle) : handle_(handle) {}
  Request(Request&& other) noexcept : handle_(std::exchange(other.handle_, SCOMM_REQUEST_NULL)) {}
  Request& operator=(Request&& other) noexcept {
    if (this != &other) {
      finish();
      handle_ = std::exchange(other.handle_, SCOMM_REQUEST_NULL);
    }
    return *this;
  }
  ~Request() { finish(); }

  void wait() { check(SCOMM_Wait(&handle_, SCOMM_STATUS_IGNORE)); }
  bool test() {
    int done = 0;
    check(SCOMM_Test(&handle_, &done, SCOMM_STATUS_IGNORE));
    return done != 0;
  }
  SCOMM_Request* handle() noexcept { return &handle_; }

 private:
  // Waits, and frees a persistent request, whose handle outlives its wait (also one moved into a
  // plain Request, for wait_all and the like).
  void finish() noexcept {
    if (handle_ == SCOMM_REQUEST_NULL) return;
    SCOMM_Wait(&handle_, SCOMM_STATUS_IGNORE);
    if (handle_ != SCOMM_REQUEST_NULL) SCOMM_Request_free(&handle_);
  }
  SCOMM_Request handle_ = SCOMM_REQUEST_NULL;
};

// A persistent request (Communicator::send_init, recv_init, and every collective's _init form,
// bcast_init, ...): start() begins its message or collective again, wait() and test()
// complete it and leave it ready to start; freed when destroyed, after it completes.
class PersistentRequest : public Request {
 public:
  using Request::Request;

  // Exception(SCOMM_ERR_REQUEST) for an empty one (moved from), which the C API would report
  // through SCOMM_COMM_WORLD's handler.
  void start() {
    if (*handle() == SCOMM_REQUEST_NULL) throw Exception(SCOMM_ERR_REQUEST);
    check(SCOMM_Start(handle()));
  }
};

namespace detail {
// A count for MPI's int: std::length_error beyond it.
inline int int_count(std::uint64_t n) {
  if (n > static_cast<std::uint64_t>(INT32_MAX))
    throw std::length_error("scomm: more than 2^31 - 1 elements in one call");
  return static_cast<int>(n);
}
// A contiguous range's element count for MPI, and its elements' datatype.
template <typename R>
int count_of(const R& data) {
  return int_count(static_cast<std::uint64_t>(std::ranges::size(data)));
}
// A range that a nonblocking or persistent call may keep using after it returns: an lvalue, or a
// view that does not own its elements (std::span). A temporary container would be destroyed
// before the call completes, so passing one does not compile.
template <typename R>
concept kept_range = std::ranges::contiguous_range<R> &&
    (std::is_lvalue_reference_v<R> || std::ranges::borrowed_range<R>);
template <typename R>
MPI_Datatype type_of(const R&) {
  return datatype<std::ranges::range_value_t<R>>();
}
// Runs `call(count, handles)` of the C API over the handles of `requests`, then gives each
// Request its handle back (SCOMM_REQUEST_NULL once complete), also when the call failed.
template <typename Call>
int on_handles(std::span<Request> requests, Call&& call) {
  std::vector<SCOMM_Request> handles;
  handles.reserve(requests.size());
  for (Request& r : requests) handles.push_back(*r.handle());
  const int code = call(int_count(handles.size()), handles.data());
  for (std::size_t i = 0; i < requests.size(); ++i) *requests[i].handle() = handles[i];
  return code;
}
// The indices of the requests that SCOMM_Waitsome or SCOMM_Testsome (`some`) completed.
inline std::vector<std::size_t> complete_some(std::span<Request> requests,
                                              decltype(&SCOMM_Waitsome) some) {
  std::vector<int> indices(requests.size());
  int outcount = 0;
  check(on_handles(requests, [&](int n, SCOMM_Request* handles) {
    return some(n, handles, &outcount, indices.data(), SCOMM_STATUSES_IGNORE);
  }));
  return {indices.begin(), indices.begin() + (outcount == MPI_UNDEFINED ? 0 : outcount)};
}
}  // namespace detail

// Completion of many requests at once, as MPI's Waitall, Waitany, Waitsome and Testsome (in any
// mix of messages, collectives and creations); a completed Request is empty afterwards.
inline void wait_all(std::span<Request> requests) {
  check(detail::on_handles(requests, [](int n, SCOMM_Request* handles) {
    return SCOMM_Waitall(n, handles, SCOMM_STATUSES_IGNORE);
  }));
}
// The index of the request that completed, or nullopt when none was active.
inline std::optional<std::size_t> wait_any(std::span<Request> requests) {
  int index = MPI_UNDEFINED;
  check(detail::on_handles(requests, [&](int n, SCOMM_Request* handles) {
    return SCOMM_Waitany(n, handles, &index, SCOMM_STATUS_IGNORE);
  }));
  if (index == MPI_UNDEFINED) return std::nullopt;
  return static_cast<std::size_t>(index);
}
// The indices of the requests that completed: at least one, or none when none was active.
inline std::vector<std::size_t> wait_some(std::span<Request> requests) {
  return detail::complete_some(requests, SCOMM_Waitsome);
}
// The indices of the requests complete now (perhaps none).
inline std::vector<std::size_t> test_some(std::span<Request> requests) {
  return detail::complete_some(requests, SCOMM_Testsome);
}

// What a receive got.
struct Received {
  int source = 0;
  int tag = 0;
  int count = 0;  // elements
};

namespace detail {
// What a status says of a receive of elements of `type`.
inline Received received(const SCOMM_Status& status, MPI_Datatype type) {
  Received got{status.SCOMM_SOURCE, status.SCOMM_TAG, 0};
  check(SCOMM_Get_count(&status, type, &got.count));
  return got;
}
}  // namespace detail

// A message a matched probe took out of matching (Communicator::mprobe): how many elements it
// holds, then its one receive. One never received is received and dropped when it goes.
class Message {
 public:
  Message(SCOMM_Message handle, const SCOMM_Status& status) : handle_(handle), status_(status) {}
  Message(Message&& other) noexcept
      : handle_(std::exchange(other.handle_, SCOMM_MESSAGE_NULL)), status_(other.status_) {}
  Message& operator=(Message&&) = delete;
  ~Message() {
    int finalized = 0;
    SCOMM_Finalized(&finalized);  // the message went with scomm (and MPI may be gone too)
    if (handle_ == SCOMM_MESSAGE_NULL || finalized != 0) return;
    try {
      drop();
    } catch (...) {  // no memory to receive it into: it stays unreceived
    }
  }

  int source() const noexcept { return status_.SCOMM_SOURCE; }
  int tag() const noexcept { return status_.SCOMM_TAG; }
  // Elements of type T it holds.
  template <typename T>
  int count() const {
    int n = 0;
    check(SCOMM_Get_count(&status_, datatype<T>(), &n));
    return n;
  }
  template <std::ranges::contiguous_range R>
  Received recv(R&& data) {
    SCOMM_Status status;
    check(SCOMM_Mrecv(std::ranges::data(data), detail::count_of(data), detail::type_of(data),
                      &handle_, &status));
    return detail::received(status, detail::type_of(data));
  }

 private:
  void drop() {
    int bytes = 0;
    SCOMM_Get_count(&status_, MPI_BYTE, &bytes);
    if (bytes != MPI_UNDEFINED) {
      std::vector<char> dropped(static_cast<std::size_t>(bytes));
      SCOMM_Mrecv(dropped.data(), bytes, MPI_BYTE, &handle_, SCOMM_STATUS_IGNORE);
      return;
    }
#if !defined(SMPI_H)  // more bytes than an int counts: received in MiB-sized elements
    MPI_Count total = 0;
    MPI_Get_elements_x(&status_.scomm_mpi_, MPI_BYTE, &total);
    constexpr int kUnit = 1 << 20;
    const MPI_Count units = (total + kUnit - 1) / kUnit;
    std::vector<char> dropped(static_cast<std::size_t>(units) * kUnit);
    MPI_Datatype unit = MPI_DATATYPE_NULL;
    MPI_Type_contiguous(kUnit, MPI_BYTE, &unit);
    MPI_Type_commit(&unit);
    SCOMM_Mrecv(dropped.data(), static_cast<int>(units), unit, &handle_, SCOMM_STATUS_IGNORE);
    MPI_Type_free(&unit);
#endif
  }

  SCOMM_Message handle_;
  SCOMM_Status status_;
};

}  // namespace scomm

#include "scomm_collectives.hpp"

namespace scomm {

// A communicator: frees what it made; Communicator::world() only borrows SCOMM_COMM_WORLD.
// Calls on it report failures by exception (its error handler is SCOMM_ERRORS_RETURN).
class Communicator : public detail::Collectives<Communicator> {
 public:
  Communicator() = default;
  static Communicator world() { return Communicator(SCOMM_COMM_WORLD, false); }
  // Takes ownership of a handle made through the C API.
  static Communicator adopt(SCOMM_Comm handle) { return Communicator(handle, true); }

  Communicator(Communicator&& other) noexcept
      : handle_(std::exchange(other.handle_, SCOMM_COMM_NULL)), owned_(other.owned_) {}
  Communicator& operator=(Communicator&& other) noexcept {
    if (this != &other) {
      release();
      handle_ = std::exchange(other.handle_, SCOMM_COMM_NULL);
      owned_ = other.owned_;
    }
    return *this;
  }
  ~Communicator() { release(); }

  explicit operator bool() const noexcept { return handle_ != SCOMM_COMM_NULL; }
  SCOMM_Comm handle() const noexcept { return handle_; }
  // handle(), or Exception(SCOMM_ERR_COMM) for an empty Communicator (moved from, or outside a
  // range): the C API would report it through SCOMM_COMM_WORLD's handler, fatal by default.
  SCOMM_Comm checked_handle() const {
    if (handle_ == SCOMM_COMM_NULL) throw Exception(SCOMM_ERR_COMM);
    return handle_;
  }
  int rank() const { return query(SCOMM_Comm_rank); }
  int size() const { return query(SCOMM_Comm_size); }

  // Creation. create_range is local (no communication): every member of this communicator makes
  // the same calls in the same order; a rank outside the range gets an empty Communicator.
  Communicator create_range(int first, int last, int stride = 1) const {
    return made([&](SCOMM_Comm* out) {
      return SCOMM_Comm_create_range(checked_handle(), first, last, stride, out);
    });
  }
  Communicator split(int color, int key) const {
    return made(
        [&](SCOMM_Comm* out) { return SCOMM_Comm_split(checked_handle(), color, key, out); });
  }
  // The members on this process's node (MPI_COMM_TYPE_SHARED), ordered by key.
  Communicator split_shared(int key) const {
    return made([&](SCOMM_Comm* out) {
      return SCOMM_Comm_split_type(checked_handle(), SCOMM_COMM_TYPE_SHARED, key, MPI_INFO_NULL,
                                   out);
    });
  }
  Communicator dup() const {
    return made([&](SCOMM_Comm* out) { return SCOMM_Comm_dup(checked_handle(), out); });
  }
  // A distributed graph topology over these members (MPI_Dist_graph_create_adjacent, unweighted):
  // this process's in-neighbors and out-neighbors, for the neighborhood collectives.
  Communicator dist_graph_adjacent(std::span<const int> sources,
                                   std::span<const int> destinations) const {
    return made([&](SCOMM_Comm* out) {
      return SCOMM_Dist_graph_create_adjacent(
          checked_handle(), detail::int_count(sources.size()), sources.data(), SCOMM_UNWEIGHTED,
          detail::int_count(destinations.size()), destinations.data(), SCOMM_UNWEIGHTED,
          MPI_INFO_NULL, 0, out);
    });
  }
  // An MPI communicator with the same members (and topology), for other MPI libraries; the
  // caller frees it.
  MPI_Comm to_mpi() const {
    MPI_Comm mpi = MPI_COMM_NULL;
    check(SCOMM_Comm_to_MPI(checked_handle(), &mpi));
    return mpi;
  }

  // Ends every process of the job with `errorcode` (SCOMM_Abort); throws only where it cannot.
  void abort(int errorcode) const { check(SCOMM_Abort(checked_handle(), errorcode)); }

  // Point-to-point.
  // Buffers are contiguous ranges (std::vector, std::array, std::span, ...).
  template <std::ranges::contiguous_range R>
  void send(const R& data, int dest, int tag = 0) const {
    check(SCOMM_Send(std::ranges::data(data), detail::count_of(data), detail::type_of(data), dest,
                     tag, checked_handle()));
  }
  template <std::ranges::contiguous_range R>
  Received recv(R&& data, int source = SCOMM_ANY_SOURCE, int tag = SCOMM_ANY_TAG) const {
    SCOMM_Status status;
    check(SCOMM_Recv(std::ranges::data(data), detail::count_of(data), detail::type_of(data), source,
                     tag, checked_handle(), &status));
    return detail::received(status, detail::type_of(data));
  }
  template <detail::kept_range R>
  Request isend(R&& data, int dest, int tag = 0) const {
    Request request;
    check(SCOMM_Isend(std::ranges::data(data), detail::count_of(data), detail::type_of(data), dest,
                      tag, checked_handle(), request.handle()));
    return request;
  }
  template <detail::kept_range R>
  Request irecv(R&& data, int source = SCOMM_ANY_SOURCE, int tag = SCOMM_ANY_TAG) const {
    Request request;
    check(SCOMM_Irecv(std::ranges::data(data), detail::count_of(data), detail::type_of(data),
                      source, tag, checked_handle(), request.handle()));
    return request;
  }

  // Persistent requests: the same message, started again and again (PersistentRequest::start).
  template <detail::kept_range R>
  PersistentRequest send_init(R&& data, int dest, int tag = 0) const {
    PersistentRequest request;
    check(SCOMM_Send_init(std::ranges::data(data), detail::count_of(data), detail::type_of(data),
                          dest, tag, checked_handle(), request.handle()));
    return request;
  }
  template <detail::kept_range R>
  PersistentRequest recv_init(R&& data, int source = SCOMM_ANY_SOURCE,
                              int tag = SCOMM_ANY_TAG) const {
    PersistentRequest request;
    check(SCOMM_Recv_init(std::ranges::data(data), detail::count_of(data), detail::type_of(data),
                          source, tag, checked_handle(), request.handle()));
    return request;
  }

  // Sends `out` to dest and receives into `in` from source at once (MPI's Sendrecv).
  template <std::ranges::contiguous_range R, std::ranges::contiguous_range S>
  Received sendrecv(const R& out, int dest, S&& in, int source = SCOMM_ANY_SOURCE, int tag = 0,
                    int recvtag = SCOMM_ANY_TAG) const {
    SCOMM_Status status;
    check(SCOMM_Sendrecv(std::ranges::data(out), detail::count_of(out), detail::type_of(out), dest,
                         tag, std::ranges::data(in), detail::count_of(in), detail::type_of(in),
                         source, recvtag, checked_handle(), &status));
    return detail::received(status, detail::type_of(in));
  }
  // The same through one buffer: what `data` held is sent, what arrives replaces it.
  template <std::ranges::contiguous_range R>
  Received sendrecv_replace(R&& data, int dest, int source = SCOMM_ANY_SOURCE, int tag = 0,
                            int recvtag = SCOMM_ANY_TAG) const {
    SCOMM_Status status;
    check(SCOMM_Sendrecv_replace(std::ranges::data(data), detail::count_of(data),
                                 detail::type_of(data), dest, tag, source, recvtag,
                                 checked_handle(), &status));
    return detail::received(status, detail::type_of(data));
  }
  // The next message from source with tag, taken out of matching for Message::recv: to receive
  // a message whose size is known only once it has arrived.
  Message mprobe(int source = SCOMM_ANY_SOURCE, int tag = SCOMM_ANY_TAG) const {
    SCOMM_Message message = SCOMM_MESSAGE_NULL;
    SCOMM_Status status;
    check(SCOMM_Mprobe(source, tag, checked_handle(), &message, &status));
    return Message(message, status);
  }

  // Collectives, blocking, nonblocking and persistent: inherited from detail::Collectives
  // (scomm_collectives.hpp).

 private:
  Communicator(SCOMM_Comm handle, bool owned) : handle_(handle), owned_(owned) {
    if (handle_ != SCOMM_COMM_NULL) check(SCOMM_Comm_set_errhandler(handle_, SCOMM_ERRORS_RETURN));
  }
  template <typename Create>
  Communicator made(Create&& create) const {
    SCOMM_Comm out = SCOMM_COMM_NULL;
    check(create(&out));
    return Communicator(out, true);
  }
  template <typename Query>
  int query(Query&& call) const {
    int value = 0;
    check(call(checked_handle(), &value));
    return value;
  }
  void release() noexcept {
    if (owned_ && handle_ != SCOMM_COMM_NULL) SCOMM_Comm_free(&handle_);
    handle_ = SCOMM_COMM_NULL;
  }

  SCOMM_Comm handle_ = SCOMM_COMM_NULL;
  bool owned_ = false;
};

}  // namespace scomm
