#include "scomm/p2p/point_to_point.hpp"

#include <string>

#include "scomm/p2p/completion.hpp"
#include "scomm/p2p/mpi_check.hpp"

namespace scomm::p2p {
namespace {

int base_rank(const Channel& channel, int rank) {
  return rank == MPI_ANY_SOURCE ? MPI_ANY_SOURCE : channel.select(rank);
}

// A receive MPI can match by itself: a specific tag, and no engine receive queued before it.
bool direct(const Channel& channel, int tag) {
  return tag != MPI_ANY_TAG && !channel.has_posted();
}

// A receive posted on MPI, which matches it by itself (from: a base rank or MPI_ANY_SOURCE).
Request mpi_irecv(const ChannelPtr& channel, void* buffer, int count, MPI_Datatype type, int from,
                  int tag) {
  return Request::mpi(post_receive(*channel, buffer, count, type, from, tag), channel, true, from);
}

// A receive that needs the engine: a message it matches was taken off MPI already, receives are
// queued before it, or it takes any tag. Otherwise (no match taken) it is posted on MPI. A taken
// message matches no receive queued before this one (each looked when posted, and the engine
// hands an arriving message to the first that matches), so this one takes it even behind them.
Request engine_irecv(MatchingEngine& engine, const ChannelPtr& channel, void* buffer, int count,
                     MPI_Datatype type, int from, int tag) {
  if (auto message = engine.take(*channel, from, tag))
    return receive_message(*message, channel, buffer, count, type);
  if (direct(*channel, tag)) return mpi_irecv(channel, buffer, count, type, from, tag);
  auto receive = std::make_unique<EngineReceive>(buffer, count, type, from, tag);
  engine.post(*channel, *receive);
  return Request::engine(std::move(receive), channel);
}

}  // namespace

void throw_bad_peer(int rank, int size) {
  throw Error(ErrorClass::kRank, "rank " + std::to_string(rank) +
                                     " is not in the communicator (size " + std::to_string(size) +
                                     ")");
}

void throw_bad_tag(int tag, int tag_ub) {
  throw Error(ErrorClass::kTag, "tag " + std::to_string(tag) + " is outside 0.." +
                                    std::to_string(tag_ub) + " (SCOMM_Tag_ub)");
}

void throw_bad_count(int count) {
  throw Error(ErrorClass::kCount, "negative count " + std::to_string(count));
}

bool at_absolute_addresses(MPI_Datatype type) {
  MPI_Count true_lb = 0, true_extent = 0;
  MPI_Type_get_true_extent_x(type, &true_lb, &true_extent);
  return true_lb != 0;
}

void check_memoryless_buffer(const void* buffer, MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL) throw Error(ErrorClass::kType, "MPI_DATATYPE_NULL");
  if (buffer == nullptr && at_absolute_addresses(type)) return;
  int size = 0;
  MPI_Type_size(type, &size);
  if (size == 0) return;
  throw Error(ErrorClass::kBuffer, buffer == nullptr
                                       ? "null buffer with count > 0"
                                       : "MPI_IN_PLACE is not a message buffer (count > 0)");
}

MPI_Request post_send(const Channel& channel, const void* buffer, int count, MPI_Datatype type,
                      int dest, int tag, SendMode mode) {
  MPI_Request request = MPI_REQUEST_NULL;
  check_mpi(start_send(channel, buffer, count, type, dest, tag, mode, &request), "isend");
  return request;
}

int send_progressing(MatchingEngine& engine, const Channel& channel, const void* buffer, int count,
                     MPI_Datatype type, int dest, int tag, SendMode mode) noexcept {
  MPI_Request request = MPI_REQUEST_NULL;
  const int rc = start_send(channel, buffer, count, type, dest, tag, mode, &request);
  MPI_Status status;
  return wait_started_progressing(engine, rc, request, status);
}

int receive_progressing(MatchingEngine& engine, const Channel& channel, void* buffer, int count,
                        MPI_Datatype type, int from, int tag, MPI_Status* status) noexcept {
  MPI_Request request = MPI_REQUEST_NULL;
  const int rc = start_receive(channel, buffer, count, type, from, tag, &request);
  MPI_Status ignored;
  return wait_started_progressing(engine, rc, request,
                                  status == MPI_STATUS_IGNORE ? ignored : *status);
}

void send(MatchingEngine& engine, const Channel& channel, const void* buffer, int count,
          MPI_Datatype type, int dest, int tag, SendMode mode) {
  if (dest == MPI_PROC_NULL) return;
  check_mpi(send_plain(engine, channel, buffer, count, type, dest, tag, mode), "send");
}

PlainRequest isend(const Channel& channel, const void* buffer, int count, MPI_Datatype type,
                   int dest, int tag, SendMode mode) {
  if (dest == MPI_PROC_NULL) return PlainRequest();
  return PlainRequest(post_send(channel, buffer, count, type, dest, tag, mode));
}

Status recv(MatchingEngine& engine, Channel& channel, void* buffer, int count, MPI_Datatype type,
            int source, int tag, bool want_status) {
  if (source == MPI_PROC_NULL) return Status::empty();
  const int from = base_rank(channel, source);
  if (direct(channel, tag) && !engine.peek(channel, from, tag)) {
    MPI_Status mpi{};
    try {
      check_mpi(receive_plain(engine, channel, buffer, count, type, from, tag, &mpi), "receive");
    } catch (...) {
      rethrow_with_status(message_status(channel, mpi));
    }
    if (want_status || source == MPI_ANY_SOURCE) return translate(channel, mpi);
    return Status{};
  }
  // Through the engine: wait for the receive like a nonblocking one.
  Request request = irecv(engine, ChannelPtr(&channel), buffer, count, type, source, tag);
  Status status;
  while (!request.test(engine, status)) engine.progress_background();
  return status;
}

Request irecv(MatchingEngine& engine, const ChannelPtr& channel, void* buffer, int count,
              MPI_Datatype type, int source, int tag) {
  if (source == MPI_PROC_NULL) return Request::completed();
  const int from = base_rank(*channel, source);
  // The common case first: nothing taken off MPI or queued in the engine for this channel.
  if (direct(*channel, tag) && !channel->has_unexpected())
    return mpi_irecv(channel, buffer, count, type, from, tag);
  return engine_irecv(engine, channel, buffer, count, type, from, tag);
}

std::optional<Status> iprobe(MatchingEngine& engine, Channel& channel, int source, int tag) {
  if (source == MPI_PROC_NULL) return Status::empty();
  const int from = base_rank(channel, source);
  // Receives waiting in the engine have the first claim on arrived messages, as receives posted
  // in MPI have before a probe there: those go to them before the probe looks.
  const bool through_engine = tag == MPI_ANY_TAG || channel.has_posted();
  if (!through_engine && !engine.peek(channel, from, tag)) {
    int flag = 0;
    MPI_Status mpi{};
    check_mpi(MPI_Iprobe(from, channel.mpi_tag(tag), channel.base(), &flag, &mpi), "MPI_Iprobe");
    if (flag) return translate(channel, mpi);
    return std::nullopt;
  }
  if (through_engine) engine.pull(channel);
  if (const MPI_Status* mpi = engine.peek(channel, from, tag)) return translate(channel, *mpi);
  return std::nullopt;
}

std::optional<ProbedMessage> improbe(MatchingEngine& engine, Channel& channel, int source,
                                     int tag) {
  engine.pull(channel);  // the arrived messages off MPI: receives waiting in the engine take theirs
  return engine.take(channel, base_rank(channel, source), tag);
}

Request receive_message(ProbedMessage& message, const ChannelPtr& channel, void* buffer, int count,
                        MPI_Datatype type) {
  auto receive =
      std::make_unique<EngineReceive>(buffer, count, type, message.status.MPI_SOURCE, MPI_ANY_TAG);
  receive->take(message);
  return Request::engine(std::move(receive), channel);
}

Status probe(MatchingEngine& engine, Channel& channel, int source, int tag) {
  for (;;) {
    if (auto status = iprobe(engine, channel, source, tag)) return *status;
    engine.progress_background();
  }
}

}  // namespace scomm::p2p
