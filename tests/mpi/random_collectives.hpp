// The collectives of random programs: all twenty-two of the C API, blocking, nonblocking or
// persistent, each with the buffers one member passes and what it must find in them afterwards,
// worked out from the communicator's members alone (every process knows them), so that any of them
// can be left pending across other work and checked when it completes.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

#include "scomm.h"
#include "scomm/coll/selection.hpp"

namespace random_programs {

// The C API's seventeen collectives on any communicator, in the selection table's order (the
// neighborhood ones after them need a virtual topology).
using Collective = scomm::coll::Operation;
constexpr int kCollectives = static_cast<int>(Collective::kAlltoallw) + 1;

// What a reduction adds up: ints under MPI_SUM, or pairs of ints under `compose`.
struct Reduction {
  MPI_Datatype type = MPI_INT;
  MPI_Op op = MPI_SUM;
  int width = 1;  // ints per element
};

// Affine maps x -> a x + b as pairs (a, b), wrapping as unsigned ints, and their composition
// as a user-defined op: associative but not commutative, so a reduction out of rank order shows.
class Composition {
 public:
  Composition() {
    MPI_Type_contiguous(2, MPI_INT, &type_);
    MPI_Type_commit(&type_);
    MPI_Op_create(&compose, 0, &op_);
  }
  ~Composition() {
    MPI_Op_free(&op_);
    MPI_Type_free(&type_);
  }
  Composition(const Composition&) = delete;
  Composition& operator=(const Composition&) = delete;

  Reduction reduction() const { return {type_, op_, 2}; }
  // later = earlier then later: x -> c (a x + b) + d for earlier (a, b), later (c, d).
  static void then(const int* earlier, int* later) {
    const auto a = static_cast<unsigned>(earlier[0]), b = static_cast<unsigned>(earlier[1]);
    const auto c = static_cast<unsigned>(later[0]), d = static_cast<unsigned>(later[1]);
    later[0] = static_cast<int>(a * c);
    later[1] = static_cast<int>(b * c + d);
  }

 private:
  // MPI's order: inout = in op inout, `in` holding the lower ranks' part.
  static void compose(void* in, void* inout, int* length, MPI_Datatype*) {
    for (int i = 0; i < *length; ++i)
      then(static_cast<const int*>(in) + 2 * i, static_cast<int*>(inout) + 2 * i);
  }

  MPI_Datatype type_ = MPI_DATATYPE_NULL;
  MPI_Op op_ = MPI_OP_NULL;
};

// Whether MPI lets `op` take MPI_IN_PLACE (at its root only, for the rooted ones); the v-forms of
// all-to-all are left out (their in-place form has no sending side to vary).
inline bool takes_in_place(Collective op) {
  return op != Collective::kBarrier && op != Collective::kBcast && op != Collective::kGatherv &&
         op != Collective::kScatterv && op != Collective::kAlltoallv &&
         !scomm::coll::is_neighborhood(op);
}

// One member's call: `members` are the communicator's world ranks in rank order, `mine` this
// process's rank among them. Reductions reduce each member's elements (append_element); every
// other block carries item(source, destination, k), so a block in the wrong place or from the
// wrong member shows. Blocks of the v-forms vary in length (zero included) and lie one unused int
// apart, which must stay as it was.
class CollectiveCall {
 public:
  // `grid`: a two-dimensional Cartesian communicator's rows, columns and periods, for the
  // neighborhood collectives (which need one; `bcast_first` salts their blocks).
  CollectiveCall(Collective op, const std::vector<int>& members, int mine, int root, int count,
                 bool in_place, int bcast_first, Reduction reduction, std::vector<int> grid = {})
      : op_(op),
        reduction_(reduction),
        members_(members),
        grid_(std::move(grid)),
        mine_(mine),
        root_(root),
        count_(count),
        in_place_(in_place && takes_in_place(op) && (!rooted() || mine == root)) {
    prepare(bcast_first);
  }

  // Blocking (request == nullptr), nonblocking, or as a persistent request started once
  // (`persistent`, which the caller frees once complete).
  int start(SCOMM_Comm c, SCOMM_Request* request, bool persistent = false);
  SCOMM_Request& request() { return request_; }

  void check() const {
    std::vector<int> got = result_;
    if (compared_ < got.size()) got.resize(compared_);
    if (checked_) {
      EXPECT_EQ(got, expected_) << "collective " << static_cast<int>(op_);
    }
  }

 private:
  static int item(int source, int destination, int k) {
    return source * 1000000 + destination * 10000 + k;
  }
  // Block lengths of the v-forms: count - 1 .. count + 1 (at least 0).
  static int vary(int count, int i) { return std::max(0, count + i % 3 - 1); }

  bool rooted() const {
    return op_ == Collective::kReduce || op_ == Collective::kGather ||
           op_ == Collective::kGatherv || op_ == Collective::kScatter ||
           op_ == Collective::kScatterv;
  }
  int n() const { return static_cast<int>(members_.size()); }
  int me() const { return members_[static_cast<std::size_t>(mine_)]; }
  const void* send_buffer() const { return in_place_ ? SCOMM_IN_PLACE : send_.data(); }

  void prepare(int bcast_first);
  void prepare_reduction();
  void prepare_gather();
  void prepare_scatter();
  void prepare_alltoall();
  void prepare_w_form();
  void prepare_reduce_scatter();
  void prepare_neighbors(int salt);
  // The grid ranks of member r's four neighbors (-1 past a non-periodic edge), in MPI's order:
  // rows -1, +1, then columns -1, +1.
  std::vector<int> grid_neighbors(int r) const {
    const int rows = grid_[0], columns = grid_[1], row = r / columns, column = r % columns;
    const auto at = [&](int i, int j) {
      if (grid_[2]) i = (i + rows) % rows;
      if (grid_[3]) j = (j + columns) % columns;
      return i < 0 || i >= rows || j < 0 || j >= columns ? -1 : i * columns + j;
    };
    return {at(row - 1, column), at(row + 1, column), at(row, column - 1), at(row, column + 1)};
  }
  // Blocks of lengths `counts`, `gap` ints apart (the v-forms leave one, which must stay as it
  // was): their displacements and the total span.
  static std::vector<int> displacements(const std::vector<int>& counts, int gap, int* span);
  // Each member's `counts` block of items(members[j]) into `into` at its displacement.
  template <typename Items>
  void place(std::vector<int>& into, const std::vector<int>& counts, const std::vector<int>& displs,
             Items items) const {
    for (int j = 0; j < n(); ++j)
      for (int k = 0; k < counts[static_cast<std::size_t>(j)]; ++k)
        into[static_cast<std::size_t>(displs[static_cast<std::size_t>(j)] + k)] = items(j, k);
  }
  // Member w's element at position p: w + p, or the map (2 (w + p) + 3, w + 5 p).
  void append_element(std::vector<int>& to, int w, int p) const {
    if (reduction_.width == 1) {
      to.push_back(w + p);
    } else {
      to.push_back(2 * (w + p) + 3);
      to.push_back(w + 5 * p);
    }
  }
  // This member's reduction input: `length` elements.
  std::vector<int> reduction_input(int length) const {
    std::vector<int> v;
    for (int p = 0; p < length; ++p) append_element(v, me(), p);
    return v;
  }
  // Members [from, to)'s inputs reduced in rank order, at positions offset .. offset + length.
  std::vector<int> reduced(int from, int to, int offset, int length) const {
    std::vector<int> v;
    for (int p = offset; p < offset + length; ++p) {
      std::vector<int> acc = reduction_.width == 1 ? std::vector<int>{0} : std::vector<int>{1, 0};
      for (int j = from; j < to; ++j) {
        std::vector<int> x;
        append_element(x, members_[static_cast<std::size_t>(j)], p);
        if (reduction_.width == 1) {
          acc[0] += x[0];
        } else {
          Composition::then(acc.data(), x.data());
          acc = x;
        }
      }
      v.insert(v.end(), acc.begin(), acc.end());
    }
    return v;
  }

  // The C API's blocking, nonblocking or persistent form of one collective on `args`.
  template <auto kBlocking, auto kNonblocking, auto kInit, typename... Args>
  int call(SCOMM_Comm c, SCOMM_Request* r, Args... args) const {
    if (r == nullptr) return kBlocking(args..., c);
    if (!persistent_) return kNonblocking(args..., c, r);
    const int rc = kInit(args..., c, MPI_INFO_NULL, r);
    return rc == SCOMM_SUCCESS ? SCOMM_Start(r) : rc;
  }
  int start_reduction(SCOMM_Comm c, SCOMM_Request* r);
  int start_gather(SCOMM_Comm c, SCOMM_Request* r);
  int start_scatter(SCOMM_Comm c, SCOMM_Request* r);
  int start_alltoall(SCOMM_Comm c, SCOMM_Request* r);
  int start_neighbors(SCOMM_Comm c, SCOMM_Request* r);

  Collective op_;
  Reduction reduction_;
  std::vector<int> members_;
  std::vector<int> grid_;
  int mine_, root_, count_;
  bool in_place_;
  bool checked_ = true;              // exscan's first member is given nothing defined
  std::size_t compared_ = SIZE_MAX;  // in-place reduce-scatters: only the member's block
  std::vector<int> send_, result_, expected_;
  std::vector<int> send_counts_, send_displs_, recv_counts_, recv_displs_;
  // The w-forms': the displacements in bytes, every type MPI_INT.
  std::vector<int> send_bytes_, recv_bytes_;
  std::vector<MPI_Aint> send_addresses_, recv_addresses_;
  std::vector<MPI_Datatype> types_;
  SCOMM_Request request_ = SCOMM_REQUEST_NULL;
  bool persistent_ = false;
};

inline void CollectiveCall::prepare(int bcast_first) {
  switch (op_) {
    case Collective::kBarrier:
      return;
    case Collective::kBcast:
      expected_.resize(static_cast<std::size_t>(count_));
      std::iota(expected_.begin(), expected_.end(), bcast_first);
      result_ = mine_ == root_ ? expected_ : std::vector<int>(expected_.size(), -1);
      return;
    case Collective::kReduce:
    case Collective::kAllreduce:
    case Collective::kScan:
    case Collective::kExscan:
      return prepare_reduction();
    case Collective::kGather:
    case Collective::kGatherv:
    case Collective::kAllgather:
    case Collective::kAllgatherv:
      return prepare_gather();
    case Collective::kScatter:
    case Collective::kScatterv:
      return prepare_scatter();
    case Collective::kAlltoall:
    case Collective::kAlltoallv:
    case Collective::kAlltoallw:
      return prepare_alltoall();
    case Collective::kReduceScatterBlock:
    case Collective::kReduceScatter:
      return prepare_reduce_scatter();
    default:
      return prepare_neighbors(bcast_first);
  }
}

inline void CollectiveCall::prepare_reduction() {
  send_ = reduction_input(count_);
  result_.assign(send_.size(), -1);
  if (in_place_) result_ = send_;
  if (op_ == Collective::kReduce && mine_ != root_) {
    expected_ = result_;  // away from the root: untouched
  } else if (op_ == Collective::kScan) {
    expected_ = reduced(0, mine_ + 1, 0, count_);
  } else if (op_ == Collective::kExscan) {
    checked_ = mine_ > 0;
    expected_ = reduced(0, mine_, 0, count_);
  } else {
    expected_ = reduced(0, n(), 0, count_);
  }
}

inline std::vector<int> CollectiveCall::displacements(const std::vector<int>& counts, int gap,
                                                      int* span) {
  std::vector<int> displs;
  *span = 0;
  for (int c : counts) {
    displs.push_back(*span);
    *span += c + gap;
  }
  return displs;
}

// Gather, gatherv, allgather, allgatherv: member j's block is item(members[j], 0, k).
inline void CollectiveCall::prepare_gather() {
  const bool v = op_ == Collective::kGatherv || op_ == Collective::kAllgatherv;
  for (int j = 0; j < n(); ++j) recv_counts_.push_back(v ? vary(count_, j) : count_);
  int span = 0;
  recv_displs_ = displacements(recv_counts_, v ? 1 : 0, &span);
  const auto block = [&](int j, int k) {
    return item(members_[static_cast<std::size_t>(j)], 0, k);
  };
  for (int k = 0; k < recv_counts_[static_cast<std::size_t>(mine_)]; ++k)
    send_.push_back(block(mine_, k));
  if (rooted() && mine_ != root_)
    return;  // recvbuf means nothing away from the root: none is passed
  result_.assign(static_cast<std::size_t>(span), -1);
  expected_ = result_;
  place(expected_, recv_counts_, recv_displs_, block);
  if (in_place_)
    std::copy(send_.begin(), send_.end(),
              result_.begin() + recv_displs_[static_cast<std::size_t>(mine_)]);
}

// Scatter, scatterv: the root's block for member j is item(members[j], 1, k).
inline void CollectiveCall::prepare_scatter() {
  const bool v = op_ == Collective::kScatterv;
  for (int j = 0; j < n(); ++j) send_counts_.push_back(v ? vary(count_, j) : count_);
  int span = 0;
  send_displs_ = displacements(send_counts_, v ? 1 : 0, &span);
  const auto block = [&](int j, int k) {
    return item(members_[static_cast<std::size_t>(j)], 1, k);
  };
  if (mine_ == root_) {
    send_.assign(static_cast<std::size_t>(span), -7);
    place(send_, send_counts_, send_displs_, block);
  }
  if (in_place_) return;  // the root keeps its block where it is
  const int mine = send_counts_[static_cast<std::size_t>(mine_)];
  for (int k = 0; k < mine; ++k) expected_.push_back(block(mine_, k));
  result_.assign(expected_.size(), -1);
}

// Alltoall and its v- and w-forms: the block from member i to member j is
// item(members[i], members[j], k), vary(count, i + j) long in the v- and w-forms.
inline void CollectiveCall::prepare_alltoall() {
  const bool v = op_ != Collective::kAlltoall;
  for (int j = 0; j < n(); ++j) {
    send_counts_.push_back(v ? vary(count_, mine_ + j) : count_);
    recv_counts_.push_back(send_counts_.back());  // vary is symmetric in i and j
  }
  int span = 0;
  send_displs_ = displacements(send_counts_, v ? 1 : 0, &span);
  recv_displs_ = send_displs_;
  const auto out = [&](int j, int k) {
    return item(me(), members_[static_cast<std::size_t>(j)], k);
  };
  const auto in = [&](int j, int k) {
    return item(members_[static_cast<std::size_t>(j)], me(), k);
  };
  send_.assign(static_cast<std::size_t>(span), -7);
  place(send_, send_counts_, send_displs_, out);
  result_.assign(send_.size(), -1);
  if (in_place_) result_ = send_;
  expected_ = result_;
  place(expected_, recv_counts_, recv_displs_, in);
  prepare_w_form();
}

// The w-forms' arguments from the v-form's: displacements in bytes, MPI_INT blocks.
inline void CollectiveCall::prepare_w_form() {
  if (op_ != Collective::kAlltoallw && op_ != Collective::kNeighborAlltoallw) return;
  const auto bytes = [](int ints) { return ints * static_cast<int>(sizeof(int)); };
  for (const int d : send_displs_) send_bytes_.push_back(bytes(d));
  for (const int d : recv_displs_) recv_bytes_.push_back(bytes(d));
  send_addresses_.assign(send_bytes_.begin(), send_bytes_.end());
  recv_addresses_.assign(recv_bytes_.begin(), recv_bytes_.end());
  types_.assign(std::max(send_counts_.size(), recv_counts_.size()), MPI_INT);
}

// Reduce_scatter_block, reduce_scatter: member j takes positions recv_displs[j] .. of the sum.
inline void CollectiveCall::prepare_reduce_scatter() {
  const bool v = op_ == Collective::kReduceScatter;
  for (int j = 0; j < n(); ++j) recv_counts_.push_back(v ? vary(count_, j) : count_);
  int total = 0;
  recv_displs_ = displacements(recv_counts_, 0, &total);
  send_ = reduction_input(total);
  const int mine = recv_counts_[static_cast<std::size_t>(mine_)];
  result_.assign(static_cast<std::size_t>(mine * reduction_.width), -1);
  if (in_place_) {
    result_ = send_;
    compared_ = static_cast<std::size_t>(mine * reduction_.width);
  }
  expected_ = reduced(0, n(), recv_displs_[static_cast<std::size_t>(mine_)], mine);
}

// The neighborhood collectives on a grid: member i's block b (b = 0 for allgather) is
// item(members[i], b + 4 (salt % 25), k) (a call's own: blocks of another show), vary(count,
// i + j) long between members i and j in the v-forms. Block
// 2d / 2d + 1 goes to the neighbor at -1 / +1 of dimension d, which keeps it as its block
// 2d + 1 / 2d (MPI-4.1, also where one process is both neighbors); blocks of missing neighbors
// stay as they were.
inline void CollectiveCall::prepare_neighbors(int salt) {
  const bool allgather =
      op_ == Collective::kNeighborAllgather || op_ == Collective::kNeighborAllgatherv;
  const bool v = op_ == Collective::kNeighborAllgatherv || op_ == Collective::kNeighborAlltoallv ||
                 op_ == Collective::kNeighborAlltoallw;
  const std::vector<int> neighbors = grid_neighbors(mine_);
  // The length of a block from member i to member j (allgather: i's one block).
  const auto length = [&](int i, int j) {
    return !v || i < 0 || j < 0 ? count_ : vary(count_, allgather ? 2 * i : i + j);
  };
  for (std::size_t b = 0; b < (allgather ? 1 : neighbors.size()); ++b) {
    send_counts_.push_back(length(mine_, allgather ? mine_ : neighbors[b]));
    for (int k = 0; k < send_counts_.back(); ++k)
      send_.push_back(item(me(), static_cast<int>(b) + 4 * (salt % 25), k));
  }
  int span = 0;
  send_displs_ = displacements(send_counts_, 0, &span);
  for (const int neighbor : neighbors) recv_counts_.push_back(length(neighbor, mine_));
  recv_displs_ = displacements(recv_counts_, v ? 1 : 0, &span);
  result_.assign(static_cast<std::size_t>(span), -1);
  expected_ = result_;
  for (std::size_t i = 0; i < neighbors.size(); ++i) {
    if (neighbors[i] < 0) continue;
    const int from = members_[static_cast<std::size_t>(neighbors[i])];
    for (int k = 0; k < recv_counts_[i]; ++k)
      expected_[static_cast<std::size_t>(recv_displs_[i] + k)] =
          item(from, (allgather ? 0 : static_cast<int>(i ^ 1)) + 4 * (salt % 25), k);
  }
  prepare_w_form();
}

inline int CollectiveCall::start(SCOMM_Comm c, SCOMM_Request* r, bool persistent) {
  persistent_ = persistent;
  switch (op_) {
    case Collective::kBarrier:
      return call<SCOMM_Barrier, SCOMM_Ibarrier, SCOMM_Barrier_init>(c, r);
    case Collective::kBcast:
      return call<SCOMM_Bcast, SCOMM_Ibcast, SCOMM_Bcast_init>(c, r, result_.data(), count_,
                                                               MPI_INT, root_);
    case Collective::kGather:
    case Collective::kGatherv:
    case Collective::kAllgather:
    case Collective::kAllgatherv:
      return start_gather(c, r);
    case Collective::kScatter:
    case Collective::kScatterv:
      return start_scatter(c, r);
    case Collective::kAlltoall:
    case Collective::kAlltoallv:
    case Collective::kAlltoallw:
      return start_alltoall(c, r);
    case Collective::kNeighborAllgather:
    case Collective::kNeighborAllgatherv:
    case Collective::kNeighborAlltoall:
    case Collective::kNeighborAlltoallv:
    case Collective::kNeighborAlltoallw:
      return start_neighbors(c, r);
    default:
      return start_reduction(c, r);
  }
}

inline int CollectiveCall::start_neighbors(SCOMM_Comm c, SCOMM_Request* r) {
  const int* in = send_.data();
  const int sent = send_counts_[0];
  int* out = result_.data();
  const int *send_counts = send_counts_.data(), *send_displs = send_displs_.data();
  const int *recv_counts = recv_counts_.data(), *recv_displs = recv_displs_.data();
  switch (op_) {
    case Collective::kNeighborAllgather:
      return call<SCOMM_Neighbor_allgather, SCOMM_Ineighbor_allgather,
                  SCOMM_Neighbor_allgather_init>(c, r, in, sent, MPI_INT, out, count_, MPI_INT);
    case Collective::kNeighborAllgatherv:
      return call<SCOMM_Neighbor_allgatherv, SCOMM_Ineighbor_allgatherv,
                  SCOMM_Neighbor_allgatherv_init>(c, r, in, sent, MPI_INT, out, recv_counts,
                                                  recv_displs, MPI_INT);
    case Collective::kNeighborAlltoall:
      return call<SCOMM_Neighbor_alltoall, SCOMM_Ineighbor_alltoall, SCOMM_Neighbor_alltoall_init>(
          c, r, in, count_, MPI_INT, out, count_, MPI_INT);
    case Collective::kNeighborAlltoallv:
      return call<SCOMM_Neighbor_alltoallv, SCOMM_Ineighbor_alltoallv,
                  SCOMM_Neighbor_alltoallv_init>(c, r, in, send_counts, send_displs, MPI_INT, out,
                                                 recv_counts, recv_displs, MPI_INT);
    default: {
      const MPI_Aint *sa = send_addresses_.data(), *ra = recv_addresses_.data();
      const MPI_Datatype* t = types_.data();
      return call<SCOMM_Neighbor_alltoallw, SCOMM_Ineighbor_alltoallw,
                  SCOMM_Neighbor_alltoallw_init>(c, r, in, send_counts, sa, t, out, recv_counts, ra,
                                                 t);
    }
  }
}

inline int CollectiveCall::start_reduction(SCOMM_Comm c, SCOMM_Request* r) {
  const void* in = send_buffer();
  int* out = result_.data();
  const int count = count_;
  const MPI_Op op = reduction_.op;
  const MPI_Datatype type = reduction_.type;
  switch (op_) {
    case Collective::kReduce:
      return call<SCOMM_Reduce, SCOMM_Ireduce, SCOMM_Reduce_init>(c, r, in, out, count, type, op,
                                                                  root_);
    case Collective::kAllreduce:
      return call<SCOMM_Allreduce, SCOMM_Iallreduce, SCOMM_Allreduce_init>(c, r, in, out, count,
                                                                           type, op);
    case Collective::kScan:
      return call<SCOMM_Scan, SCOMM_Iscan, SCOMM_Scan_init>(c, r, in, out, count, type, op);
    case Collective::kExscan:
      return call<SCOMM_Exscan, SCOMM_Iexscan, SCOMM_Exscan_init>(c, r, in, out, count, type, op);
    case Collective::kReduceScatterBlock:
      return call<SCOMM_Reduce_scatter_block, SCOMM_Ireduce_scatter_block,
                  SCOMM_Reduce_scatter_block_init>(c, r, in, out, count, type, op);
    default:
      return call<SCOMM_Reduce_scatter, SCOMM_Ireduce_scatter, SCOMM_Reduce_scatter_init>(
          c, r, in, out, recv_counts_.data(), type, op);
  }
}

inline int CollectiveCall::start_gather(SCOMM_Comm c, SCOMM_Request* r) {
  const void* in = send_buffer();
  const int sent = static_cast<int>(send_.size());
  int* out = result_.data();
  const int* counts = recv_counts_.data();
  const int* displs = recv_displs_.data();
  switch (op_) {
    case Collective::kGather:
      return call<SCOMM_Gather, SCOMM_Igather, SCOMM_Gather_init>(c, r, in, sent, MPI_INT, out,
                                                                  count_, MPI_INT, root_);
    case Collective::kGatherv:
      return call<SCOMM_Gatherv, SCOMM_Igatherv, SCOMM_Gatherv_init>(
          c, r, in, sent, MPI_INT, out, counts, displs, MPI_INT, root_);
    case Collective::kAllgather:
      return call<SCOMM_Allgather, SCOMM_Iallgather, SCOMM_Allgather_init>(c, r, in, sent, MPI_INT,
                                                                           out, count_, MPI_INT);
    default:
      return call<SCOMM_Allgatherv, SCOMM_Iallgatherv, SCOMM_Allgatherv_init>(
          c, r, in, sent, MPI_INT, out, counts, displs, MPI_INT);
  }
}

inline int CollectiveCall::start_scatter(SCOMM_Comm c, SCOMM_Request* r) {
  const int* in = send_.data();
  void* out = in_place_ ? SCOMM_IN_PLACE : static_cast<void*>(result_.data());
  const int got = static_cast<int>(result_.size());
  if (op_ == Collective::kScatter)
    return call<SCOMM_Scatter, SCOMM_Iscatter, SCOMM_Scatter_init>(c, r, in, count_, MPI_INT, out,
                                                                   got, MPI_INT, root_);
  const int* counts = send_counts_.data();
  const int* displs = send_displs_.data();
  return call<SCOMM_Scatterv, SCOMM_Iscatterv, SCOMM_Scatterv_init>(
      c, r, in, counts, displs, MPI_INT, out, got, MPI_INT, root_);
}

inline int CollectiveCall::start_alltoall(SCOMM_Comm c, SCOMM_Request* r) {
  const void* in = send_buffer();
  int* out = result_.data();
  if (op_ == Collective::kAlltoall)
    return call<SCOMM_Alltoall, SCOMM_Ialltoall, SCOMM_Alltoall_init>(c, r, in, count_, MPI_INT,
                                                                      out, count_, MPI_INT);
  const int *sc = send_counts_.data(), *sd = send_displs_.data();
  const int *rc = recv_counts_.data(), *rd = recv_displs_.data();
  if (op_ == Collective::kAlltoallv)
    return call<SCOMM_Alltoallv, SCOMM_Ialltoallv, SCOMM_Alltoallv_init>(c, r, in, sc, sd, MPI_INT,
                                                                         out, rc, rd, MPI_INT);
  const int *sb = send_bytes_.data(), *rb = recv_bytes_.data();
  const MPI_Datatype* t = types_.data();
  return call<SCOMM_Alltoallw, SCOMM_Ialltoallw, SCOMM_Alltoallw_init>(c, r, in, sc, sb, t, out, rc,
                                                                       rb, t);
}

}  // namespace random_programs
