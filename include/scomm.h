/* scomm: scalable, lightweight MPI groups and communicators -- the MPI-shaped C API.
 *
 * Every SCOMM_X takes exactly the parameters of MPI_X, with SCOMM_ handle types in place of the
 * MPI ones, and returns SCOMM_SUCCESS or an error code whose class SCOMM_Error_class recovers and
 * whose text SCOMM_Error_string gives. */
#ifndef SCOMM_H
#define SCOMM_H

#include <mpi.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int SCOMM_Group;

#define SCOMM_GROUP_NULL ((SCOMM_Group)0)
#define SCOMM_GROUP_EMPTY ((SCOMM_Group)1)

/* Error classes; an error code is its class plus 256 times a message slot. */
enum {
  SCOMM_SUCCESS = 0,
  SCOMM_ERR_GROUP = 1,
  SCOMM_ERR_RANK = 2,
  SCOMM_ERR_ARG = 3,
  SCOMM_ERR_COMM = 4,
  SCOMM_ERR_TAG = 5,
  SCOMM_ERR_COUNT = 6,
  SCOMM_ERR_TRUNCATE = 7,
  SCOMM_ERR_ROOT = 8,
  SCOMM_ERR_OP = 9,
  SCOMM_ERR_TYPE = 10,
  SCOMM_ERR_REQUEST = 11,
  SCOMM_ERR_BUFFER = 12,
  SCOMM_ERR_NO_MEM = 13,
  SCOMM_ERR_CONTEXT = 14,
  SCOMM_ERR_NOT_SUPPORTED = 15,
  SCOMM_ERR_INTERN = 16,
  SCOMM_ERR_LASTCODE = 17
};

#define SCOMM_UNDEFINED MPI_UNDEFINED
#define SCOMM_IDENT MPI_IDENT
#define SCOMM_SIMILAR MPI_SIMILAR
#define SCOMM_UNEQUAL MPI_UNEQUAL
#define SCOMM_MAX_OBJECT_NAME 64
#define SCOMM_MAX_ERROR_STRING 512

/* Map strategies (thesis ch. 3.8), for maps built after the call. */
enum { SCOMM_MAP_SPACE = 0, SCOMM_MAP_TIME = 1, SCOMM_MAP_HYBRID = 2 };

int SCOMM_Group_size(SCOMM_Group group, int *size);
int SCOMM_Group_rank(SCOMM_Group group, int *rank);
int SCOMM_Group_translate_ranks(SCOMM_Group group1, int n, const int ranks1[], SCOMM_Group group2,
                                int ranks2[]);
int SCOMM_Group_compare(SCOMM_Group group1, SCOMM_Group group2, int *result);
int SCOMM_Group_union(SCOMM_Group group1, SCOMM_Group group2, SCOMM_Group *newgroup);
int SCOMM_Group_intersection(SCOMM_Group group1, SCOMM_Group group2, SCOMM_Group *newgroup);
int SCOMM_Group_difference(SCOMM_Group group1, SCOMM_Group group2, SCOMM_Group *newgroup);
int SCOMM_Group_incl(SCOMM_Group group, int n, const int ranks[], SCOMM_Group *newgroup);
int SCOMM_Group_excl(SCOMM_Group group, int n, const int ranks[], SCOMM_Group *newgroup);
int SCOMM_Group_range_incl(SCOMM_Group group, int n, int ranges[][3], SCOMM_Group *newgroup);
int SCOMM_Group_range_excl(SCOMM_Group group, int n, int ranges[][3], SCOMM_Group *newgroup);
int SCOMM_Group_free(SCOMM_Group *group);

/* Additions. Ranks 0..n-1 of a virtual world of n processes (the caller's rank in it is
 * SCOMM_UNDEFINED until a communicator sets it). */
int SCOMM_Group_world(int n, SCOMM_Group *group);
/* Bytes of the group's map, tables shared with other groups included. */
int SCOMM_Group_memory(SCOMM_Group group, size_t *bytes);
int SCOMM_Set_map_strategy(int strategy);
/* The map's representation, e.g. "stride" or "elias-fano+wtr" (SCOMM_MAX_OBJECT_NAME at most). */
int SCOMM_Group_representation(SCOMM_Group group, char *name, int *resultlen);
int SCOMM_Error_string(int errorcode, char *string, int *resultlen);

/* After MPI_Init: creates scomm's base communicators (SCOMM_BASE_COMMS duplicates of
 * MPI_COMM_WORLD, default 1). Before MPI_Finalize: SCOMM_Finalize frees them. */
int SCOMM_Init(void);
int SCOMM_Finalize(void);
/* The largest tag a scomm message may carry (at least 2^15 - 1 - 256). */
int SCOMM_Tag_ub(int *tag_ub);
int SCOMM_Error_class(int errorcode, int *errorclass);

#ifdef __cplusplus
}
#endif

#endif /* SCOMM_H */
