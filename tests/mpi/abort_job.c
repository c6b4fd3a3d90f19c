/* Ends the job from its last rank while the others wait in a receive that nothing will match:
 *   abort_job abort   SCOMM_Abort(errorcode 42) on a communicator of the ranks 1.. (or 0..0),
 *                     which the first rank is not a member of;
 *   abort_job fatal   a send to a rank outside the world, under the default
 *                     SCOMM_ERRORS_ARE_FATAL (message, then MPI_Abort with the error class).
 * The whole job must end with that code, never hang (tests/mpi/expect_abort.sh checks). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "scomm.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc != 2 || SCOMM_Init() != SCOMM_SUCCESS) return 1;
  int rank = 0, size = 0, value = 0;
  SCOMM_Comm_rank(SCOMM_COMM_WORLD, &rank);
  SCOMM_Comm_size(SCOMM_COMM_WORLD, &size);
  const int last = size - 1;
  SCOMM_Comm ranks_after_first = SCOMM_COMM_NULL;
  if (SCOMM_Comm_create_range(SCOMM_COMM_WORLD, size > 1 ? 1 : 0, last, 1, &ranks_after_first) !=
      SCOMM_SUCCESS)
    return 1;
  if (rank == last) {
    if (strcmp(argv[1], "abort") == 0) SCOMM_Abort(ranks_after_first, 42);
    if (strcmp(argv[1], "fatal") == 0) SCOMM_Send(&value, 1, MPI_INT, size, 0, SCOMM_COMM_WORLD);
    fprintf(stderr, "abort_job: rank %d is still running after '%s'\n", rank, argv[1]);
    return 1;
  }
  SCOMM_Recv(&value, 1, MPI_INT, last, 0, SCOMM_COMM_WORLD, SCOMM_STATUS_IGNORE);
  fprintf(stderr, "abort_job: rank %d received a message nobody sent\n", rank);
  return 1;
}
