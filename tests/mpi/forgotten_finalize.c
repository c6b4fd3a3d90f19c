/* A program that never calls SCOMM_Finalize, with a communicator and a request still live: scomm
 * must finalize itself inside MPI_Finalize (not abort the job by calling MPI afterwards). */
#include <mpi.h>
#include <stdio.h>

#include "scomm.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (SCOMM_Init() != SCOMM_SUCCESS) return 1;
  int rank = 0, size = 0;
  SCOMM_Comm_rank(SCOMM_COMM_WORLD, &rank);
  SCOMM_Comm_size(SCOMM_COMM_WORLD, &size);
  SCOMM_Comm dup = SCOMM_COMM_NULL;
  if (SCOMM_Comm_dup(SCOMM_COMM_WORLD, &dup) != SCOMM_SUCCESS) return 1;
  int value = 0;
  SCOMM_Request pending = SCOMM_REQUEST_NULL;
  if (SCOMM_Irecv(&value, 1, MPI_INT, MPI_ANY_SOURCE, 3, dup, &pending) != SCOMM_SUCCESS) return 1;
  MPI_Finalize();
  int live = 0;
  MPI_Finalized(&live);
  printf("rank %d of %d finalized: %d\n", rank, size, live);
  return live ? 0 : 1;
}
