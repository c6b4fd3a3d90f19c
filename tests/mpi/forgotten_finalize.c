/* A program that never calls SCOMM_Finalize, with a communicator and a request still live: scomm
 * must finalize itself inside MPI_Finalize (not abort the job by calling MPI afterwards), and say
 * so through SCOMM_Finalized, as SCOMM_Initialized tells its state from before MPI_Init on. */
#include <mpi.h>
#include <stdio.h>

#include "scomm.h"

// 0 when SCOMM_Initialized and SCOMM_Finalized give `initialized` and `finalized`.
static int check_state(const char* when, int initialized, int finalized) {
  int is_initialized = -1, is_finalized = -1;
  SCOMM_Initialized(&is_initialized);
  SCOMM_Finalized(&is_finalized);
  if (is_initialized == initialized && is_finalized == finalized) return 0;
  fprintf(stderr, "%s: SCOMM_Initialized %d, SCOMM_Finalized %d; expected %d and %d\n", when,
          is_initialized, is_finalized, initialized, finalized);
  return 1;
}

int main(int argc, char** argv) {
  if (check_state("before MPI_Init", 0, 0) != 0) return 1;
  MPI_Init(&argc, &argv);
  if (check_state("before SCOMM_Init", 0, 0) != 0) return 1;
  if (SCOMM_Init() != SCOMM_SUCCESS) return 1;
  if (check_state("after SCOMM_Init", 1, 0) != 0) return 1;
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
  return live && check_state("after MPI_Finalize", 1, 1) == 0 ? 0 : 1;
}
