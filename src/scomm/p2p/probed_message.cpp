#include "scomm/p2p/probed_message.hpp"

#include <algorithm>

#include "scomm/p2p/mpi_check.hpp"

namespace scomm::p2p {

int bytes_of(const MPI_Status& status) {
  int bytes = 0;
  MPI_Get_count(&status, MPI_BYTE, &bytes);
  return bytes;
}

#if SCOMM_MATCHED_PROBE

std::optional<ProbedMessage> take_arrived(MPI_Comm base) {
  int flag = 0;
  ProbedMessage message{};
  check_mpi(
      MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, base, &flag, &message.message, &message.status),
      "MPI_Improbe");
  if (!flag) return std::nullopt;
  return message;
}

void receive_probed(ProbedMessage& message, void* buffer, int count, MPI_Datatype type,
                    MPI_Request& request) {
  check_mpi(MPI_Imrecv(buffer, count, type, &message.message, &request), "MPI_Imrecv");
}

void discard_probed(ProbedMessage& message) {
  const int bytes = bytes_of(message.status);
  std::vector<char> sink(static_cast<std::size_t>(std::max(bytes, 1)));
  MPI_Mrecv(sink.data(), bytes, MPI_BYTE, &message.message, MPI_STATUS_IGNORE);
}

#else

std::optional<ProbedMessage> take_arrived(MPI_Comm base) {
  int flag = 0;
  ProbedMessage message{};
  check_mpi(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, base, &flag, &message.status), "MPI_Iprobe");
  if (!flag) return std::nullopt;
  // The first message from that source with that tag is the one probed (non-overtaking).
  const int bytes = bytes_of(message.status);
  message.packed.resize(static_cast<std::size_t>(std::max(bytes, 1)));
  check_mpi(MPI_Recv(message.packed.data(), bytes, MPI_BYTE, message.status.MPI_SOURCE,
                     message.status.MPI_TAG, base, MPI_STATUS_IGNORE),
            "MPI_Recv");
  return message;
}

void receive_probed(ProbedMessage& message, void* buffer, int, MPI_Datatype type,
                    MPI_Request& request) {
  request = MPI_REQUEST_NULL;
  int type_size = 0;
  MPI_Type_size(type, &type_size);
  const int bytes = bytes_of(message.status);
  if (bytes == 0 || type_size == 0) return;
  int position = 0;
  check_mpi(MPI_Unpack(message.packed.data(), bytes, &position, buffer, bytes / type_size, type,
                       MPI_COMM_SELF),
            "MPI_Unpack");
}

void discard_probed(ProbedMessage& message) {
  message.packed.clear();
}

#endif

}  // namespace scomm::p2p
