// Janus quicksort, written once over a communicator backend B (backend.hpp).
//
// A group is a contiguous range of ranks [first, last] of the top communicator whose data is
// exactly the global sorted positions [lo, hi) (at the top: all ranks, any input sizes). One
// recursion step (a GroupTask, a state machine so that a Janus rank can serve two groups):
//   pivot     one Iallreduce picks `samples` uniform random elements of the group (exponential
//             race: each rank proposes a random local element with key log(u)/count, the largest
//             key wins, so a rank wins in proportion to its count) -- the broadcast of the
//             pivot's samples is fused into the reduction; pivot = their median
//   partition three ways, < pivot, == pivot, > pivot (all-equal inputs end in one step)
//   counts    every rank's prefix and the group's totals of the three counts: one Iallgather of
//             them in small groups (Options::gather_counts_max_ranks; log p rounds, 24 p bytes),
//             else an Iscan, then an Ibcast of the totals from the group's last rank (the slides'
//             way: less data, but the scan alone takes p - 1 steps where the base picks a chain)
//   exchange  element k of part q goes to position base_q + prefix + k, i.e. to the rank owning
//             it (Isend, one message per part and destination); receivers take any source per
//             part until their slice of the part is full -- order inside a part is free, the
//             recursion sorts it
//   recurse   the "<" part is positions [lo, lo + L), ">" part [lo + L + E, hi); the "==" part is
//             final. A side on one rank is sorted locally, once every group is done; a side on
//             several ranks gets a communicator. The two sides share at most one rank (the Janus
//             rank): overlapping, they are two creations on the parent (every parent member makes
//             both, in the same order, as docs/DESIGN.md's local creation rule demands);
//             disjoint, one.
//   pair      a group of two ranks (below the top) ends in RBC's base case: the two swap their
//             elements and each keeps its share of the union, sorted.
// The tasks of one process are progressed round robin (nonblocking everything), so a Janus rank
// never blocks in one group while the other waits for it.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <span>
#include <stdexcept>
#include <vector>

#include "backend.hpp"
#include "janus_sort/janus_sort.hpp"
#include "mpi_type.hpp"

namespace janus::detail {

using Pos = std::uint64_t;

// The slice rule: rank r of p owns positions [begin(r), begin(r + 1)) of n.
struct Layout {
  Pos n = 0;
  int p = 1;
  Pos begin(int r) const { return n * static_cast<Pos>(r) / static_cast<Pos>(p); }
  // The rank whose slice holds `pos` (< n): the largest r with begin(r) <= pos.
  int owner(Pos pos) const { return static_cast<int>(((pos + 1) * static_cast<Pos>(p) - 1) / n); }
};

template <class T>
struct Sample {
  double key;
  T value;
};

// Elementwise max by key (then value, so that the result is the same at every rank).
template <class T>
void max_sample(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* a = static_cast<const Sample<T>*>(in);
  auto* b = static_cast<Sample<T>*>(inout);
  for (int i = 0; i < *len; ++i)
    if (a[i].key > b[i].key || (a[i].key == b[i].key && b[i].value < a[i].value)) b[i] = a[i];
}

// The sample datatype and reduction, made and freed per sort call (local MPI calls).
template <class T>
struct SampleOp {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Op op = MPI_OP_NULL;
  SampleOp() {
    MPI_Type_contiguous(static_cast<int>(sizeof(Sample<T>)), MPI_BYTE, &type);
    MPI_Type_commit(&type);
    MPI_Op_create(&max_sample<T>, 1, &op);
  }
  ~SampleOp() {
    MPI_Op_free(&op);
    MPI_Type_free(&type);
  }
  SampleOp(const SampleOp&) = delete;
  SampleOp& operator=(const SampleOp&) = delete;
};

template <class T, class B>
class GroupTask;

// Pivot sampling's generator: Knuth's MMIX LCG, seeded by one store. std::mt19937_64's seeding
// fills 312 words, 0.85 us per sort call: a fifth of a whole 2-rank sort of one element each.
// Its weak low bits do not matter here: the distributions draw on the high ones.
using SampleRng = std::linear_congruential_engine<std::uint64_t, 6364136223846793005ULL,
                                                  1442695040888963407ULL, 0>;

// What the group tasks of one process share during one sort call.
template <class T, class B>
struct Shared {
  int me = 0;  // rank in the top communicator
  Layout layout;
  std::vector<T> out;  // this rank's slice, positions [layout.begin(me), layout.begin(me + 1))
  SampleRng rng;
  SampleOp<T> sample;
  Options options;  // the sort call's
  std::vector<std::unique_ptr<GroupTask<T, B>>> tasks;
  // Positions whose elements lie here alone, sorted once no group waits for this rank any more
  // (as KaDiS's JanusSort does): a long local sort would stall a Janus rank's other group.
  std::vector<std::array<Pos, 2>> local_sorts;

  Pos slice_begin() const { return layout.begin(me); }
  Pos slice_end() const { return layout.begin(me + 1); }
  // This rank's elements of positions [lo, hi).
  std::span<T> segment(Pos lo, Pos hi) {
    const Pos a = std::max(lo, slice_begin()), b = std::min(hi, slice_end());
    if (a >= b) return {};
    return std::span<T>(out).subspan(a - slice_begin(), b - a);
  }
};

inline int to_int(std::uint64_t count) {
  if (count > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    throw std::runtime_error("janus::sort: a message of more than INT_MAX elements");
  return static_cast<int>(count);
}

enum Part { kLess = 0, kEqual = 1, kGreater = 2, kParts = 3 };

template <class T, class B>
class GroupTask {
 public:
  using Comm = typename B::Comm;
  using Request = typename B::Request;

  // `top`: the whole communicator with the caller's input, whose size is learnt from the scan.
  GroupTask(Shared<T, B>& shared, Comm comm, bool owns_comm, int first, int last, Pos lo, Pos hi,
            std::span<const T> input, bool top)
      : s_(shared),
        comm_(comm),
        owns_comm_(owns_comm),
        first_(first),
        last_(last),
        lo_(lo),
        hi_(hi),
        input_(input),
        top_(top) {}
  GroupTask(const GroupTask&) = delete;
  GroupTask& operator=(const GroupTask&) = delete;

  // Advances as far as possible without blocking; true once the step is done.
  bool step() {
    for (;;) {
      switch (stage_) {
        case Stage::kStart:
          if (is_pair())
            post_pair_exchange();
          else
            post_pivot();
          break;
        case Stage::kPair:
          if (!progress_exchange()) return false;
          keep_my_share();
          timed_creation([&] { release(); });
          return true;
        case Stage::kPivot:
          if (!B::test(&request_, MPI_DATATYPE_NULL, nullptr)) return false;
          partition_and_count();
          break;
        case Stage::kGather:
          if (!B::test(&request_, MPI_DATATYPE_NULL, nullptr)) return false;
          sum_gathered_counts();
          start_exchange();
          break;
        case Stage::kScan:
          if (!B::test(&request_, MPI_DATATYPE_NULL, nullptr)) return false;
          post_totals();
          break;
        case Stage::kTotals:
          if (!B::test(&request_, MPI_DATATYPE_NULL, nullptr)) return false;
          start_exchange();
          break;
        case Stage::kExchange:
          if (!progress_exchange() || !B::test(&dup_request_, MPI_DATATYPE_NULL, nullptr))
            return false;
          recurse();
          return true;
      }
    }
  }

 private:
  enum class Stage { kStart, kPivot, kGather, kScan, kTotals, kExchange, kPair };

  struct Incoming {  // this rank's share of one part
    T* at = nullptr;
    std::uint64_t left = 0;
    Request request = B::kNullRequest;
  };

  // Two overlapping children take two derivation slots of their parent (docs/DESIGN.md); a
  // parent out of slots allocates fresh blocks in its next creation, blocking. The top group
  // lets it (every member of the caller's communicator gets there together, and the runs of
  // blocks grow, so that sorts in a row pay one allreduce per hundreds of calls); below, with
  // fewer than two slots left, a copy of the communicator (a fresh block) is made in the
  // background, so that a Janus rank never blocks in one group while its other group waits.
  void prepare_creation_parent() {
    if (top_ || B::creation_slots(comm_) >= 2) return;
    B::idup(comm_, &copy_, &dup_request_);
  }

  // RBC's two-rank base case: the pair swaps its elements and each keeps its share of their union,
  // one message each way where recursion would take about log2 of the group's size steps (the
  // cut between the two ranks is hit exactly only by luck). The top group learns its size first.
  bool is_pair() const { return !top_ && last_ - first_ == 1; }

  void post_pair_exchange() {
    const std::size_t mine = input_.size();
    parted_.resize(static_cast<std::size_t>(hi_ - lo_));
    std::ranges::copy(input_, parted_.begin());
    // One message each way, on the pair's own communicator: tagged and received as part 0.
    sends_.push_back(B::kNullRequest);
    B::isend(parted_.data(), to_int(mine), mpi_type<T>(), s_.me == first_ ? 1 : 0, kLess, comm_,
             &sends_.back());
    incoming_[kLess] = {parted_.data() + mine, parted_.size() - mine, B::kNullRequest};
    post_receive(kLess);
    stage_ = Stage::kPair;
  }

  // The lower rank keeps the smallest elements of the pair, the upper one the largest (sorted
  // later, with the other local sorts).
  void keep_my_share() {
    const auto mine = static_cast<std::ptrdiff_t>(input_.size());
    const bool lower = s_.me == first_;
    const auto cut = lower ? parted_.begin() + mine : parted_.end() - mine;
    std::nth_element(parted_.begin(), cut, parted_.end());
    const auto share = lower ? std::ranges::subrange(parted_.begin(), cut)
                             : std::ranges::subrange(cut, parted_.end());
    std::ranges::copy(share, s_.segment(lo_, hi_).begin());
    s_.local_sorts.push_back({lo_, hi_});
  }

  void post_pivot() {
    prepare_creation_parent();
    const std::size_t count = input_.size();
    local_.assign(static_cast<std::size_t>(s_.options.samples), {});
    reduced_.assign(local_.size(), {});
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (Sample<T>& sample : local_) {
      sample = {-std::numeric_limits<double>::infinity(), T{}};
      if (count == 0) continue;
      // 1 - unit in (0, 1]: log of it is finite.
      sample.key = std::log(1.0 - unit(s_.rng)) / static_cast<double>(count);
      sample.value = input_[std::uniform_int_distribution<std::size_t>(0, count - 1)(s_.rng)];
    }
    B::iallreduce(local_.data(), reduced_.data(), s_.options.samples, s_.sample.type, s_.sample.op,
                  comm_, &request_);
    stage_ = Stage::kPivot;
  }

  // The median of the samples that came from some element (all do unless the group is empty).
  T pivot() const {
    std::vector<T> values;
    for (const Sample<T>& sample : reduced_)
      if (sample.key != -std::numeric_limits<double>::infinity()) values.push_back(sample.value);
    if (values.empty()) return T{};
    auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
  }

  void partition_and_count() {
    const T p = pivot();
    parted_.assign(input_.begin(), input_.end());
    const auto less = std::partition(parted_.begin(), parted_.end(), [&](T x) { return x < p; });
    const auto equal = std::partition(less, parted_.end(), [&](T x) { return !(p < x); });
    counts_ = {static_cast<std::int64_t>(less - parted_.begin()),
               static_cast<std::int64_t>(equal - less),
               static_cast<std::int64_t>(parted_.end() - equal)};
    const int size = last_ - first_ + 1;
    if (size <= s_.options.gather_counts_max_ranks) {
      gathered_.resize(static_cast<std::size_t>(size * kParts));
      B::iallgather(counts_.data(), kParts, MPI_INT64_T, gathered_.data(), kParts, MPI_INT64_T,
                    comm_, &request_);
      stage_ = Stage::kGather;
    } else {
      B::iscan(counts_.data(), inclusive_.data(), kParts, MPI_INT64_T, MPI_SUM, comm_, &request_);
      stage_ = Stage::kScan;
    }
  }

  // The inclusive prefix at this rank and the totals, from every rank's counts.
  void sum_gathered_counts() {
    const auto me = static_cast<std::size_t>(s_.me - first_);
    inclusive_ = totals_ = {};
    for (std::size_t r = 0; r * kParts < gathered_.size(); ++r)
      for (std::size_t q = 0; q < kParts; ++q) {
        totals_[q] += gathered_[r * kParts + q];
        if (r <= me) inclusive_[q] += gathered_[r * kParts + q];
      }
  }

  // The last rank's inclusive sums are the totals.
  void post_totals() {
    const int root = last_ - first_;
    if (s_.me == last_) totals_ = inclusive_;
    B::ibcast(totals_.data(), kParts, MPI_INT64_T, root, comm_, &request_);
    stage_ = Stage::kTotals;
  }

  Pos total(int part) const { return static_cast<Pos>(totals_[static_cast<std::size_t>(part)]); }
  // First global position of part q.
  Pos base(int part) const {
    Pos at = lo_;
    for (int q = 0; q < part; ++q) at += total(q);
    return at;
  }

  void start_exchange() {
    if (top_) {  // now the global size is known: every rank's slice with it
      s_.layout.n = total(kLess) + total(kEqual) + total(kGreater);
      s_.out.resize(s_.layout.begin(s_.me + 1) - s_.layout.begin(s_.me));
      hi_ = s_.layout.n;
    }
    for (int q = 0; q < kParts; ++q) expect(q);
    std::size_t offset = 0;
    for (int q = 0; q < kParts; ++q) {
      const auto mine = static_cast<std::size_t>(counts_[static_cast<std::size_t>(q)]);
      const auto before = static_cast<Pos>(inclusive_[static_cast<std::size_t>(q)]) - mine;
      send_part(q, base(q) + before, std::span<const T>(parted_).subspan(offset, mine));
      offset += mine;
    }
    for (int q = 0; q < kParts; ++q) post_receive(q);
    stage_ = Stage::kExchange;
  }

  // Where this rank's share of part q goes in its slice, and how much of it.
  void expect(int q) {
    const std::span<T> part = s_.segment(base(q), base(q) + total(q));
    incoming_[static_cast<std::size_t>(q)] = {part.data(), part.size(), B::kNullRequest};
  }

  // `data` goes to positions [at, at + size): a message per owner, a copy for this rank.
  void send_part(int q, Pos at, std::span<const T> data) {
    while (!data.empty()) {
      const int dest = s_.layout.owner(at);
      const std::size_t length = std::min<std::size_t>(data.size(), s_.layout.begin(dest + 1) - at);
      if (dest == s_.me) {
        Incoming& in = incoming_[static_cast<std::size_t>(q)];
        std::copy_n(data.begin(), length, in.at);
        in.at += length;
        in.left -= length;
      } else {
        sends_.push_back(B::kNullRequest);
        B::isend(data.data(), to_int(length), mpi_type<T>(), dest - first_, q, comm_,
                 &sends_.back());
      }
      data = data.subspan(length);
      at += length;
    }
  }

  void post_receive(int q) {
    Incoming& in = incoming_[static_cast<std::size_t>(q)];
    if (in.left > 0) B::irecv(in.at, to_int(in.left), mpi_type<T>(), q, comm_, &in.request);
  }

  bool progress_exchange() {
    bool done = true;
    for (int q = 0; q < kParts; ++q) {
      Incoming& in = incoming_[static_cast<std::size_t>(q)];
      int count = 0;
      while (in.request != B::kNullRequest && B::test(&in.request, mpi_type<T>(), &count)) {
        in.at += count;
        in.left -= static_cast<std::uint64_t>(count);
        post_receive(q);  // more senders to come
      }
      done = done && in.left == 0;
    }
    std::erase_if(sends_, [](Request& r) { return B::test(&r, MPI_DATATYPE_NULL, nullptr); });
    return done && sends_.empty();
  }

  // Ranks of the top communicator holding positions [lo, hi) (hi > lo).
  Range ranks_of(Pos lo, Pos hi) const { return {s_.layout.owner(lo), s_.layout.owner(hi - 1)}; }

  using Sides = std::vector<std::pair<Range, std::array<Pos, 2>>>;  // ranks and positions

  void recurse() {
    const Pos left_end = lo_ + total(kLess), right_begin = left_end + total(kEqual);
    Sides sides;  // multi-rank sides only
    for (const auto [lo, hi] : {std::array<Pos, 2>{lo_, left_end}, {right_begin, hi_}}) {
      if (lo >= hi) continue;
      const Range ranks = ranks_of(lo, hi);
      if (ranks.size() > 1)
        sides.push_back({ranks, {lo, hi}});
      else if (ranks.first == s_.me)  // base case: the side lies on this rank alone
        s_.local_sorts.push_back({lo, hi});
    }
    timed_creation([&] {
      create_children(sides);
      release();
    });
  }

  // Creating and freeing subgroups is what the statistics time.
  template <class Work>
  void timed_creation(Work work) {
    const double start = MPI_Wtime();
    work();
    if (s_.options.stats != nullptr) s_.options.stats->creation_seconds += MPI_Wtime() - start;
  }

  // This group's communicators freed: the parent copy, and its own unless the caller's.
  void release() {
    if (copy_ != B::kNullComm) B::free(&copy_);
    if (owns_comm_) B::free(&comm_);
  }

  // The children's communicators.
  void create_children(const Sides& sides) {
    const Comm parent = copy_ != B::kNullComm ? copy_ : comm_;
    if (sides.size() == 2 && sides[0].first.last == sides[1].first.first) {  // a Janus rank
      create(parent, {sides.data(), 1});
      create(parent, {sides.data() + 1, 1});
    } else if (!sides.empty()) {
      create(parent, sides);
    }
  }

  // One creation on the parent for disjoint `sides`; this rank's side becomes a new task.
  void create(Comm parent, std::span<const std::pair<Range, std::array<Pos, 2>>> sides) {
    if (s_.options.stats != nullptr) ++s_.options.stats->creations;
    std::array<Range, 2> relative{};
    for (std::size_t i = 0; i < sides.size(); ++i)
      relative[i] = {sides[i].first.first - first_, sides[i].first.last - first_};
    Comm child = B::create(parent, std::span<const Range>(relative.data(), sides.size()));
    if (child == B::kNullComm) return;
    const auto& [ranks, positions] = sides[static_cast<std::size_t>(
        range_of(std::span<const Range>(relative.data(), sides.size()), s_.me - first_))];
    const std::span<T> data = s_.segment(positions[0], positions[1]);
    s_.tasks.push_back(std::make_unique<GroupTask>(s_, child, true, ranks.first, ranks.last,
                                                   positions[0], positions[1], data, false));
  }

  Shared<T, B>& s_;
  Comm comm_;
  bool owns_comm_;
  int first_, last_;
  Pos lo_, hi_;
  std::span<const T> input_;
  bool top_;
  Stage stage_ = Stage::kStart;
  Request request_ = B::kNullRequest;
  Comm copy_ = B::kNullComm;  // the parent of the children when comm_ lacks slots
  Request dup_request_ = B::kNullRequest;
  std::vector<Sample<T>> local_, reduced_;
  std::vector<T> parted_;
  std::array<std::int64_t, kParts> counts_{}, inclusive_{}, totals_{};
  std::vector<std::int64_t> gathered_;  // every rank's counts, rank by rank (small groups)
  std::array<Incoming, kParts> incoming_{};
  std::vector<Request> sends_;
};

// The driver: the top group's task, then every task of this process round robin until none is
// left.
template <class T, class B>
void run(std::vector<T>& data, typename B::Comm comm, const Options& options) {
  const int size = B::size(comm);
  if (size == 1) {
    std::ranges::sort(data);
    return;
  }
  if (options.samples < 1) throw std::invalid_argument("janus::sort: samples < 1");
  Shared<T, B> shared;
  shared.me = B::rank(comm);
  shared.layout.p = size;
  shared.options = options;
  shared.rng.seed(options.seed ^ (0x9e3779b97f4a7c15ULL * static_cast<Pos>(shared.me + 1)));
  shared.tasks.push_back(std::make_unique<GroupTask<T, B>>(shared, comm, false, 0, size - 1, 0, 0,
                                                           std::span<const T>(data), true));
  while (!shared.tasks.empty())
    for (std::size_t i = 0; i < shared.tasks.size();)
      if (shared.tasks[i]->step())  // may append children: they run in this sweep too
        shared.tasks.erase(shared.tasks.begin() + static_cast<std::ptrdiff_t>(i));
      else
        ++i;
  for (const auto [lo, hi] : shared.local_sorts) std::ranges::sort(shared.segment(lo, hi));
  data = std::move(shared.out);
}

}  // namespace janus::detail
