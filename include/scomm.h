/* scomm: scalable, lightweight MPI groups and communicators -- the MPI-shaped C API.
 *
 * Every SCOMM_X takes exactly the parameters of MPI_X, with SCOMM_ handle types in place of the
 * MPI ones, and returns SCOMM_SUCCESS or an error code whose class SCOMM_Error_class recovers and
 * whose text SCOMM_Error_string gives. */
/* Laid out as C (pointers bound to names) like mpi.h, whose functions these mirror one for one,
 * rather than in the project's C++ style. */
/* clang-format off */
#ifndef SCOMM_H
#define SCOMM_H

#include <mpi.h>
#include <stddef.h>

/* The version of this header (CMakeLists.txt reads it from here); SCOMM_Get_library_version names
 * the library linked and its MPI. */
#define SCOMM_VERSION_MAJOR 0
#define SCOMM_VERSION_MINOR 1
#define SCOMM_VERSION_PATCH 0

#ifdef __cplusplus
extern "C" {
#endif

typedef int SCOMM_Group;
typedef int SCOMM_Comm;
typedef int SCOMM_Request;
typedef int SCOMM_Errhandler;
typedef int SCOMM_Message;
/* A user's error handler, called as MPI calls an MPI_Comm_errhandler_function: with the
 * communicator and the error code; when it returns, the failed call returns that code. */
typedef void SCOMM_Comm_errhandler_function(SCOMM_Comm *comm, int *errorcode, ...);

/* A receive's status in communicator terms. The count is read with SCOMM_Get_count. */
typedef struct SCOMM_Status {
  int SCOMM_SOURCE;
  int SCOMM_TAG;
  int SCOMM_ERROR;
  int scomm_cancelled_;
  MPI_Status scomm_mpi_;
} SCOMM_Status;

/* A handle carries its kind in bits 28-30 (communicator 1, group 2, request 3 and 4, message 5,
   error handler 6; keyvals are plain integers, as MPI's), so that a handle of one kind given for
   another is an error, not another object. */
#define SCOMM_GROUP_NULL ((SCOMM_Group)0)
#define SCOMM_GROUP_EMPTY ((SCOMM_Group)0x20000001)
#define SCOMM_COMM_NULL ((SCOMM_Comm)0)
/* MPI_COMM_WORLD as a scomm communicator, between SCOMM_Init and SCOMM_Finalize. */
#define SCOMM_COMM_WORLD ((SCOMM_Comm)0x10000001)
#define SCOMM_REQUEST_NULL ((SCOMM_Request)0)
#define SCOMM_ERRORS_ARE_FATAL ((SCOMM_Errhandler)0x60000001)
#define SCOMM_ERRORS_RETURN ((SCOMM_Errhandler)0x60000002)
#define SCOMM_ERRHANDLER_NULL ((SCOMM_Errhandler)0)
#define SCOMM_STATUS_IGNORE ((SCOMM_Status *)0)
#define SCOMM_STATUSES_IGNORE ((SCOMM_Status *)0)
#define SCOMM_ANY_SOURCE MPI_ANY_SOURCE
#define SCOMM_ANY_TAG MPI_ANY_TAG
#define SCOMM_PROC_NULL MPI_PROC_NULL

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
  SCOMM_ERR_TOPOLOGY = 17,
  SCOMM_ERR_LASTCODE = 18
};

#define SCOMM_UNDEFINED MPI_UNDEFINED
#define SCOMM_COMM_TYPE_SHARED MPI_COMM_TYPE_SHARED
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

/* Communicators. Calls with a communicator report errors through its error handler
 * (SCOMM_ERRORS_ARE_FATAL by default: message and MPI_Abort), calls with a bad communicator handle
 * through SCOMM_COMM_WORLD's. */
int SCOMM_Comm_size(SCOMM_Comm comm, int *size);
int SCOMM_Comm_rank(SCOMM_Comm comm, int *rank);
int SCOMM_Comm_group(SCOMM_Comm comm, SCOMM_Group *group);
int SCOMM_Comm_compare(SCOMM_Comm comm1, SCOMM_Comm comm2, int *result);
int SCOMM_Comm_dup(SCOMM_Comm comm, SCOMM_Comm *newcomm);
/* *newcomm is written when the request completes. */
int SCOMM_Comm_idup(SCOMM_Comm comm, SCOMM_Comm *newcomm, SCOMM_Request *request);
/* Info hints: scomm honours none, so the hints in use (SCOMM_Comm_get_info, a new MPI_Info for
 * the caller to free) are always none; the calls with info are those without. */
int SCOMM_Comm_dup_with_info(SCOMM_Comm comm, MPI_Info info, SCOMM_Comm *newcomm);
int SCOMM_Comm_idup_with_info(SCOMM_Comm comm, MPI_Info info, SCOMM_Comm *newcomm,
                              SCOMM_Request *request);
int SCOMM_Comm_set_info(SCOMM_Comm comm, MPI_Info info);
int SCOMM_Comm_get_info(SCOMM_Comm comm, MPI_Info *info_used);
int SCOMM_Comm_split(SCOMM_Comm comm, int color, int key, SCOMM_Comm *newcomm);
int SCOMM_Comm_isplit(SCOMM_Comm comm, int color, int key, SCOMM_Comm *newcomm,
                      SCOMM_Request *request);
/* split_type SCOMM_COMM_TYPE_SHARED: the members of comm on the caller's node (as the base MPI's
 * MPI_Comm_split_type saw the nodes at SCOMM_Init), ordered by key, then rank in comm; or
 * SCOMM_UNDEFINED (SCOMM_COMM_NULL). Other types are SCOMM_ERR_ARG. info's hints are not read. */
int SCOMM_Comm_split_type(SCOMM_Comm comm, int split_type, int key, MPI_Info info,
                          SCOMM_Comm *newcomm);
int SCOMM_Comm_create(SCOMM_Comm comm, SCOMM_Group group, SCOMM_Comm *newcomm);
/* Called by the members of group only; concurrent calls on one parent with overlapping groups
 * need tags that differ modulo 64 (a clash is detected and reported, never mixed). */
int SCOMM_Comm_create_group(SCOMM_Comm comm, SCOMM_Group group, int tag, SCOMM_Comm *newcomm);
/* Local: the context is released once no request on the communicator is pending. */
int SCOMM_Comm_free(SCOMM_Comm *comm);
int SCOMM_Comm_set_name(SCOMM_Comm comm, const char *name);
int SCOMM_Comm_get_name(SCOMM_Comm comm, char *name, int *resultlen);
int SCOMM_Comm_set_errhandler(SCOMM_Comm comm, SCOMM_Errhandler errhandler);
/* A user's handler comes back as a new handle to it, for SCOMM_Errhandler_free. */
int SCOMM_Comm_get_errhandler(SCOMM_Comm comm, SCOMM_Errhandler *errhandler);
int SCOMM_Comm_create_errhandler(SCOMM_Comm_errhandler_function *function,
                                 SCOMM_Errhandler *errhandler);
/* Sets *errhandler to SCOMM_ERRHANDLER_NULL; communicators that have the handler keep it. */
int SCOMM_Errhandler_free(SCOMM_Errhandler *errhandler);
/* Reports errorcode through comm's error handler (SCOMM_ERRORS_ARE_FATAL aborts the job);
 * SCOMM_SUCCESS once a handler that returns has returned. */
int SCOMM_Comm_call_errhandler(SCOMM_Comm comm, int errorcode);

/* Additions. Collective over comm. */
int SCOMM_Comm_from_MPI(MPI_Comm comm, SCOMM_Comm *newcomm);
/* Collective over the members; the caller owns the result (MPI_Comm_free). */
int SCOMM_Comm_to_MPI(SCOMM_Comm comm, MPI_Comm *mpicomm);
/* Local, O(1): ranks first, first + stride, ... up to last of comm; callers outside get
 * SCOMM_COMM_NULL. Every member of comm makes its local creations on comm in the same order: the
 * k-th is at every member the same call, or one whose range shares no member with it (each half
 * creating its own half is one creation). Each creation takes one of comm's derivation slots
 * (SCOMM_Comm_local_slots), then, once they are used up, a whole block of a run of fresh blocks
 * that the creation after the last slot allocates collectively over comm (blocking: every member
 * takes part in that same creation; runs of 2, 4, ... up to 8,192 blocks). SCOMM_COMM_WORLD
 * starts with a run of 1,024 blocks, reserved at SCOMM_Init without a message of its own. */
int SCOMM_Comm_create_range(SCOMM_Comm comm, int first, int last, int stride,
                            SCOMM_Comm *newcomm);
/* Local: how many more local creations on comm derive their context without communication (its
 * derivation slots left; the same at every member). Each slot serves once: reusing one could let
 * a member that ran ahead send on the new child while another still receives on the old. At 0
 * the next local creation on comm allocates a run of fresh blocks collectively over comm
 * (blocking); a program that must not block there can SCOMM_Comm_idup comm beforehand (a new
 * block, SCOMM_DERIVE_BITS slots) and create on the copy. */
int SCOMM_Comm_local_slots(SCOMM_Comm comm, int *slots);

/* Local, like SCOMM_Comm_create_range, for any group every member of comm knows (a subset of
 * comm's group, the same at every member): callers outside it get SCOMM_COMM_NULL. */
int SCOMM_Comm_create_from_group(SCOMM_Comm comm, SCOMM_Group group, SCOMM_Comm *newcomm);

/* Cartesian topologies, with MPI's parameters, created locally like SCOMM_Comm_create_range:
 * SCOMM_Cart_create takes comm_old's first ranks (scomm never reorders; the processes beyond the
 * grid get SCOMM_COMM_NULL), SCOMM_Cart_sub gives each caller its sub-grid with a constant-size
 * map; both follow SCOMM_Comm_create_range's ordering rule. The queries are local. */
int SCOMM_Cart_create(SCOMM_Comm comm_old, int ndims, const int dims[], const int periods[],
                      int reorder, SCOMM_Comm *comm_cart);
int SCOMM_Cart_sub(SCOMM_Comm comm, const int remain_dims[], SCOMM_Comm *newcomm);
int SCOMM_Cart_coords(SCOMM_Comm comm, int rank, int maxdims, int coords[]);
int SCOMM_Cart_rank(SCOMM_Comm comm, const int coords[], int *rank);
int SCOMM_Cart_shift(SCOMM_Comm comm, int direction, int disp, int *rank_source,
                     int *rank_dest);
int SCOMM_Cart_get(SCOMM_Comm comm, int maxdims, int dims[], int periods[], int coords[]);
int SCOMM_Cartdim_get(SCOMM_Comm comm, int *ndims);
int SCOMM_Dims_create(int nnodes, int ndims, int dims[]);

/* Distributed graph topologies, with MPI's parameters. Both are collective over comm_old and
 * keep its members in its order (scomm never reorders): SCOMM_Dist_graph_create_adjacent, where
 * each process names its own in- and out-neighbors, is a duplicate of comm_old carrying them;
 * SCOMM_Dist_graph_create, where any process may name any edge, first delivers each edge to its
 * two ends (a sparse exchange on the new communicator), each process's neighbors then listed in
 * the order of the processes that named them and, within one, in the order named; its graph is
 * weighted where some process names weighted edges or passes SCOMM_WEIGHTS_EMPTY (MPI's
 * answer for a graph without edges). Weights are SCOMM_UNWEIGHTED,
 * SCOMM_WEIGHTS_EMPTY or nonnegative; info hints are ignored.
 * SCOMM_Topo_test gives SCOMM_CART, SCOMM_DIST_GRAPH or SCOMM_UNDEFINED. SCOMM_Comm_to_MPI and
 * SCOMM_Comm_from_MPI carry a communicator's topology across (under SimGrid SMPI, which has no
 * MPI_Topo_test and no distributed graphs, to_MPI a grid's alone). */
#define SCOMM_CART MPI_CART
#define SCOMM_DIST_GRAPH MPI_DIST_GRAPH
#define SCOMM_UNWEIGHTED MPI_UNWEIGHTED
#define SCOMM_WEIGHTS_EMPTY MPI_WEIGHTS_EMPTY
int SCOMM_Dist_graph_create_adjacent(SCOMM_Comm comm_old, int indegree, const int sources[],
                                     const int sourceweights[], int outdegree,
                                     const int destinations[], const int destweights[],
                                     MPI_Info info, int reorder, SCOMM_Comm *comm_dist_graph);
int SCOMM_Dist_graph_create(SCOMM_Comm comm_old, int n, const int sources[], const int degrees[],
                            const int destinations[], const int weights[], MPI_Info info,
                            int reorder, SCOMM_Comm *comm_dist_graph);
int SCOMM_Dist_graph_neighbors_count(SCOMM_Comm comm, int *indegree, int *outdegree,
                                     int *weighted);
int SCOMM_Dist_graph_neighbors(SCOMM_Comm comm, int maxindegree, int sources[],
                               int sourceweights[], int maxoutdegree, int destinations[],
                               int destweights[]);
int SCOMM_Topo_test(SCOMM_Comm comm, int *status);

/* Network levels (MPICH-G2's MPICHX_TOPOLOGY_DEPTHS and _COLORS): level 0 is the outermost
 * (e.g. sites), the last the innermost (e.g. NUMA domains); SCOMM_Init discovers the world's
 * (SCOMM_TOPO* in docs/DESIGN.md) and every communicator inherits them without communication.
 * SCOMM_Comm_get_attr(comm, SCOMM_TOPOLOGY_DEPTHS, &depths, &flag) with int *depths gives the
 * number of levels of each rank of comm (depths[rank]); with SCOMM_TOPOLOGY_COLORS and
 * int **colors, colors[rank][level] is the rank's cluster at that level, numbered 0, 1, ... in
 * order of the clusters' lowest ranks in comm. flag is 1 for these keyvals; the arrays belong to
 * scomm and stay valid until comm is freed. SCOMM_Topo_level_name names a level ("site",
 * "node", "package", ...; SCOMM_MAX_OBJECT_NAME at most). */
#define SCOMM_TOPOLOGY_DEPTHS 1
#define SCOMM_TOPOLOGY_COLORS 2
/* MPI's predefined attributes, on every communicator: SCOMM_Comm_get_attr(comm, SCOMM_TAG_UB,
 * &value, &flag) with int *value gives scomm's largest user tag (SCOMM_Tag_ub, not the base
 * MPI's); SCOMM_HOST, SCOMM_IO, SCOMM_WTIME_IS_GLOBAL, SCOMM_APPNUM and SCOMM_UNIVERSE_SIZE give
 * the base MPI's on MPI_COMM_WORLD (flag 0 where it has none). Predefined keyvals cannot be set,
 * deleted or freed (SCOMM_ERR_ARG). */
#define SCOMM_TAG_UB 3
#define SCOMM_HOST 4
#define SCOMM_IO 5
#define SCOMM_WTIME_IS_GLOBAL 6
#define SCOMM_APPNUM 7
#define SCOMM_UNIVERSE_SIZE 8
/* Attribute caching, as MPI's: keyvals with copy and delete callbacks; SCOMM_Comm_dup and
 * SCOMM_Comm_idup copy attributes (idup when it starts), SCOMM_Comm_free deletes them, the last
 * set first. A callback's failure (other than SCOMM_SUCCESS) fails the call as SCOMM_ERR_ARG: a
 * free then leaves the communicator live with the attributes not yet deleted. */
typedef int SCOMM_Comm_copy_attr_function(SCOMM_Comm oldcomm, int comm_keyval, void *extra_state,
                                          void *attribute_val_in, void *attribute_val_out,
                                          int *flag);
typedef int SCOMM_Comm_delete_attr_function(SCOMM_Comm comm, int comm_keyval,
                                            void *attribute_val, void *extra_state);
#define SCOMM_KEYVAL_INVALID 0
#define SCOMM_COMM_NULL_COPY_FN ((SCOMM_Comm_copy_attr_function *)0)
#define SCOMM_COMM_NULL_DELETE_FN ((SCOMM_Comm_delete_attr_function *)0)
#define SCOMM_COMM_DUP_FN SCOMM_Comm_dup_fn
int SCOMM_Comm_dup_fn(SCOMM_Comm oldcomm, int comm_keyval, void *extra_state,
                      void *attribute_val_in, void *attribute_val_out, int *flag);
int SCOMM_Comm_create_keyval(SCOMM_Comm_copy_attr_function *comm_copy_attr_fn,
                             SCOMM_Comm_delete_attr_function *comm_delete_attr_fn,
                             int *comm_keyval, void *extra_state);
int SCOMM_Comm_free_keyval(int *comm_keyval);
int SCOMM_Comm_set_attr(SCOMM_Comm comm, int comm_keyval, void *attribute_val);
int SCOMM_Comm_delete_attr(SCOMM_Comm comm, int comm_keyval);
/* Predefined keyvals (SCOMM_TOPOLOGY_*, SCOMM_TAG_UB, ...) and the user's. */
int SCOMM_Comm_get_attr(SCOMM_Comm comm, int comm_keyval, void *attribute_val, int *flag);
int SCOMM_Topo_level_name(SCOMM_Comm comm, int level, char *name, int *resultlen);

/* Point-to-point; tags 0..SCOMM_Tag_ub. A receive with SCOMM_ANY_TAG is matched by scomm, not
 * by MPI: like a nonblocking collective it advances in every scomm wait, test and blocking call,
 * but not while its process blocks in a plain MPI call, where a large message to it may then
 * keep its sender waiting. */
int SCOMM_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               SCOMM_Comm comm);
int SCOMM_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                SCOMM_Comm comm);
int SCOMM_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                SCOMM_Comm comm, SCOMM_Request *request);
int SCOMM_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                 SCOMM_Comm comm, SCOMM_Request *request);
/* Buffered sends use the buffer attached with MPI_Buffer_attach. A ready send is sent in standard
 * mode, which MPI allows: a receive of any tag waits in scomm, not in MPI. */
int SCOMM_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                SCOMM_Comm comm);
int SCOMM_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                SCOMM_Comm comm);
int SCOMM_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                 SCOMM_Comm comm, SCOMM_Request *request);
int SCOMM_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                 SCOMM_Comm comm, SCOMM_Request *request);
int SCOMM_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, SCOMM_Comm comm,
               SCOMM_Status *status);
int SCOMM_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, SCOMM_Comm comm,
                SCOMM_Request *request);
int SCOMM_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                   int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                   int recvtag, SCOMM_Comm comm, SCOMM_Status *status);
int SCOMM_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                           int source, int recvtag, SCOMM_Comm comm, SCOMM_Status *status);
int SCOMM_Probe(int source, int tag, SCOMM_Comm comm, SCOMM_Status *status);
int SCOMM_Iprobe(int source, int tag, SCOMM_Comm comm, int *flag, SCOMM_Status *status);
/* Matched probes: the message found is taken out of matching, for SCOMM_Mrecv or SCOMM_Imrecv
 * alone (which set the handle to SCOMM_MESSAGE_NULL). From SCOMM_PROC_NULL:
 * SCOMM_MESSAGE_NO_PROC, whose receive completes at once. */
#define SCOMM_MESSAGE_NULL ((SCOMM_Message)0)
#define SCOMM_MESSAGE_NO_PROC ((SCOMM_Message)0x50000001)
int SCOMM_Mprobe(int source, int tag, SCOMM_Comm comm, SCOMM_Message *message,
                 SCOMM_Status *status);
int SCOMM_Improbe(int source, int tag, SCOMM_Comm comm, int *flag, SCOMM_Message *message,
                  SCOMM_Status *status);
int SCOMM_Mrecv(void *buf, int count, MPI_Datatype datatype, SCOMM_Message *message,
                SCOMM_Status *status);
int SCOMM_Imrecv(void *buf, int count, MPI_Datatype datatype, SCOMM_Message *message,
                 SCOMM_Request *request);
/* Completion. A failed request is complete and freed too (MPI's rule), and the call returns the
 * failure of the first failed request in the array through that request's communicator (where
 * MPI returns MPI_ERR_IN_STATUS): SCOMM_Waitany and SCOMM_Testany give its index; SCOMM_Waitall,
 * SCOMM_Testall, SCOMM_Waitsome and SCOMM_Testsome give each status SCOMM_ERROR, SCOMM_SUCCESS or
 * the failed request's error class. Calls that return one status (SCOMM_Wait, SCOMM_Recv, ...)
 * leave its SCOMM_ERROR as it was, as MPI's do: their code tells the error. */
int SCOMM_Wait(SCOMM_Request *request, SCOMM_Status *status);
int SCOMM_Test(SCOMM_Request *request, int *flag, SCOMM_Status *status);
int SCOMM_Waitall(int count, SCOMM_Request array_of_requests[], SCOMM_Status array_of_statuses[]);
int SCOMM_Testall(int count, SCOMM_Request array_of_requests[], int *flag,
                  SCOMM_Status array_of_statuses[]);
int SCOMM_Waitany(int count, SCOMM_Request array_of_requests[], int *index, SCOMM_Status *status);
int SCOMM_Testany(int count, SCOMM_Request array_of_requests[], int *index, int *flag,
                  SCOMM_Status *status);
int SCOMM_Waitsome(int incount, SCOMM_Request array_of_requests[], int *outcount,
                   int array_of_indices[], SCOMM_Status array_of_statuses[]);
int SCOMM_Testsome(int incount, SCOMM_Request array_of_requests[], int *outcount,
                   int array_of_indices[], SCOMM_Status array_of_statuses[]);
int SCOMM_Cancel(SCOMM_Request *request);
/* An active send or receive completes on its own, as in MPI: a receive still takes the next
 * message it matches (its communicator's context stays reserved until then; SCOMM_Finalize
 * cancels those still waiting). A nonblocking collective's request, or a started persistent
 * collective's, cannot be freed (SCOMM_ERR_REQUEST: MPI calls it erroneous); complete it. */
int SCOMM_Request_free(SCOMM_Request *request);
/* Whether the request has completed, with its status, leaving it to a wait or test. One that
 * failed has completed: *flag is 1 and the call returns its error. */
int SCOMM_Request_get_status(SCOMM_Request request, int *flag, SCOMM_Status *status);
/* Persistent requests: the arguments are checked here; each SCOMM_Start (inactive requests only)
 * starts one message as SCOMM_Isend, SCOMM_Issend or SCOMM_Irecv would, on the communicator,
 * which must then still be live. Completion leaves the request inactive, not freed (the
 * completion calls treat an inactive one as SCOMM_REQUEST_NULL and leave its handle);
 * SCOMM_Request_free frees it, an active one once its message completes. */
int SCOMM_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    SCOMM_Comm comm, SCOMM_Request *request);
int SCOMM_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                     SCOMM_Comm comm, SCOMM_Request *request);
int SCOMM_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                     SCOMM_Comm comm, SCOMM_Request *request);
int SCOMM_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                     SCOMM_Comm comm, SCOMM_Request *request);
int SCOMM_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                    SCOMM_Comm comm, SCOMM_Request *request);
int SCOMM_Start(SCOMM_Request *request);
int SCOMM_Startall(int count, SCOMM_Request array_of_requests[]);
int SCOMM_Get_count(const SCOMM_Status *status, MPI_Datatype datatype, int *count);
int SCOMM_Test_cancelled(const SCOMM_Status *status, int *flag);
/* SCOMM_ERR_NOT_SUPPORTED on a base MPI without MPI_Get_elements (SimGrid SMPI 3.32). */
int SCOMM_Get_elements(const SCOMM_Status *status, MPI_Datatype datatype, int *count);
int SCOMM_Status_set_elements(SCOMM_Status *status, MPI_Datatype datatype, int count);
int SCOMM_Status_set_cancelled(SCOMM_Status *status, int flag);

/* Collectives, blocking and nonblocking, with MPI's parameters (SCOMM_IN_PLACE where MPI allows
 * MPI_IN_PLACE; predefined and user-defined MPI_Op, non-commutative ones reduced in rank order;
 * any MPI datatype). Nonblocking collectives progress in every scomm wait, test and blocking
 * call. Algorithms: SCOMM_COLL_<OPERATION>=<algorithm> (docs/DESIGN.md) overrides the choice. */
#define SCOMM_IN_PLACE MPI_IN_PLACE
int SCOMM_Barrier(SCOMM_Comm comm);
int SCOMM_Ibarrier(SCOMM_Comm comm, SCOMM_Request *request);
int SCOMM_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, SCOMM_Comm comm);
int SCOMM_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, SCOMM_Comm comm,
                 SCOMM_Request *request);
int SCOMM_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 int root, SCOMM_Comm comm);
int SCOMM_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  int root, SCOMM_Comm comm, SCOMM_Request *request);
int SCOMM_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, SCOMM_Comm comm);
int SCOMM_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, SCOMM_Comm comm, SCOMM_Request *request);
int SCOMM_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               SCOMM_Comm comm);
int SCOMM_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                SCOMM_Comm comm, SCOMM_Request *request);
int SCOMM_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 SCOMM_Comm comm);
int SCOMM_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  SCOMM_Comm comm, SCOMM_Request *request);
int SCOMM_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, SCOMM_Comm comm);
int SCOMM_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, SCOMM_Comm comm,
                  SCOMM_Request *request);
int SCOMM_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                  SCOMM_Comm comm);
int SCOMM_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                   SCOMM_Comm comm, SCOMM_Request *request);
int SCOMM_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, SCOMM_Comm comm);
int SCOMM_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, int root, SCOMM_Comm comm,
                   SCOMM_Request *request);
int SCOMM_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                   MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   int root, SCOMM_Comm comm);
int SCOMM_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                    MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                    int root, SCOMM_Comm comm, SCOMM_Request *request);
int SCOMM_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, SCOMM_Comm comm);
int SCOMM_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, SCOMM_Comm comm,
                     SCOMM_Request *request);
int SCOMM_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     SCOMM_Comm comm);
int SCOMM_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                      SCOMM_Comm comm, SCOMM_Request *request);
int SCOMM_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, SCOMM_Comm comm);
int SCOMM_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, SCOMM_Comm comm,
                    SCOMM_Request *request);
int SCOMM_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, SCOMM_Comm comm);
int SCOMM_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                     MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                     const int rdispls[], MPI_Datatype recvtype, SCOMM_Comm comm,
                     SCOMM_Request *request);
/* A count, a datatype and a byte displacement per rank on each side; SCOMM_IN_PLACE as the send
 * buffer sends the receive buffer's blocks, replaced by the ones received. */
int SCOMM_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[], SCOMM_Comm comm);
int SCOMM_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                     const int rdispls[], const MPI_Datatype recvtypes[], SCOMM_Comm comm,
                     SCOMM_Request *request);
int SCOMM_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                               MPI_Datatype datatype, MPI_Op op, SCOMM_Comm comm);
int SCOMM_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                MPI_Datatype datatype, MPI_Op op, SCOMM_Comm comm,
                                SCOMM_Request *request);
int SCOMM_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, SCOMM_Comm comm);
int SCOMM_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                          MPI_Datatype datatype, MPI_Op op, SCOMM_Comm comm,
                          SCOMM_Request *request);

/* Neighborhood collectives on a communicator with a virtual topology (else SCOMM_ERR_TOPOLOGY),
 * with MPI's parameters and block order: a distributed graph's neighbors as listed, a grid's for
 * each dimension the one at -1, then the one at +1 (SCOMM_PROC_NULL past a non-periodic edge:
 * that block is left alone). On a grid the block sent to the -1 neighbor is its block from +1
 * and the other way round, also where one process is both (a periodic extent of 1 or 2: MPI-4.1
 * section 8.6); repeated graph edges match in list order. SCOMM_IN_PLACE is not allowed
 * (SCOMM_ERR_BUFFER). */
int SCOMM_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype,
                             SCOMM_Comm comm);
int SCOMM_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, int recvcount, MPI_Datatype recvtype,
                              SCOMM_Comm comm, SCOMM_Request *request);
int SCOMM_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, SCOMM_Comm comm);
int SCOMM_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, const int recvcounts[], const int displs[],
                               MPI_Datatype recvtype, SCOMM_Comm comm, SCOMM_Request *request);
int SCOMM_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, SCOMM_Comm comm);
int SCOMM_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype,
                             SCOMM_Comm comm, SCOMM_Request *request);
int SCOMM_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, SCOMM_Comm comm);
int SCOMM_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                              MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                              const int rdispls[], MPI_Datatype recvtype, SCOMM_Comm comm,
                              SCOMM_Request *request);
int SCOMM_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                             const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                             void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                             const MPI_Datatype recvtypes[], SCOMM_Comm comm);
int SCOMM_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                              void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                              const MPI_Datatype recvtypes[], SCOMM_Comm comm,
                              SCOMM_Request *request);

/* Persistent collectives (MPI-4.0 section 6.13), with MPI's parameters: each makes an inactive
 * persistent request that SCOMM_Start / SCOMM_Startall start, the completion calls complete, and
 * SCOMM_Request_free frees once inactive. Each start runs the collective as its nonblocking form
 * would, with the arguments given here (the buffers' contents as they are at the start); every
 * member starts its requests of one communicator in the same order. The arguments are checked
 * here, through the communicator's error handler (no request is made then), and the schedule
 * is built here; `info` is accepted and not read. */
int SCOMM_Barrier_init(SCOMM_Comm comm, MPI_Info info, SCOMM_Request *request);
int SCOMM_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, SCOMM_Comm comm,
                     MPI_Info info, SCOMM_Request *request);
int SCOMM_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                      MPI_Op op, int root, SCOMM_Comm comm, MPI_Info info,
                      SCOMM_Request *request);
int SCOMM_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                         MPI_Op op, SCOMM_Comm comm, MPI_Info info, SCOMM_Request *request);
int SCOMM_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, SCOMM_Comm comm, MPI_Info info, SCOMM_Request *request);
int SCOMM_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                      MPI_Op op, SCOMM_Comm comm, MPI_Info info, SCOMM_Request *request);
int SCOMM_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, SCOMM_Comm comm,
                      MPI_Info info, SCOMM_Request *request);
int SCOMM_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                       int root, SCOMM_Comm comm, MPI_Info info, SCOMM_Request *request);
int SCOMM_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, int root, SCOMM_Comm comm,
                       MPI_Info info, SCOMM_Request *request);
int SCOMM_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                        MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, int root, SCOMM_Comm comm, MPI_Info info,
                        SCOMM_Request *request);
int SCOMM_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         int recvcount, MPI_Datatype recvtype, SCOMM_Comm comm, MPI_Info info,
                         SCOMM_Request *request);
int SCOMM_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                          void *recvbuf, const int recvcounts[], const int displs[],
                          MPI_Datatype recvtype, SCOMM_Comm comm, MPI_Info info,
                          SCOMM_Request *request);
int SCOMM_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, SCOMM_Comm comm, MPI_Info info,
                        SCOMM_Request *request);
int SCOMM_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                         MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                         const int rdispls[], MPI_Datatype recvtype, SCOMM_Comm comm,
                         MPI_Info info, SCOMM_Request *request);
int SCOMM_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                         const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                         const int rdispls[], const MPI_Datatype recvtypes[], SCOMM_Comm comm,
                         MPI_Info info, SCOMM_Request *request);
int SCOMM_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                    MPI_Datatype datatype, MPI_Op op, SCOMM_Comm comm,
                                    MPI_Info info, SCOMM_Request *request);
int SCOMM_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                              MPI_Datatype datatype, MPI_Op op, SCOMM_Comm comm, MPI_Info info,
                              SCOMM_Request *request);
int SCOMM_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                  SCOMM_Comm comm, MPI_Info info, SCOMM_Request *request);
int SCOMM_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                   void *recvbuf, const int recvcounts[], const int displs[],
                                   MPI_Datatype recvtype, SCOMM_Comm comm, MPI_Info info,
                                   SCOMM_Request *request);
int SCOMM_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                 SCOMM_Comm comm, MPI_Info info, SCOMM_Request *request);
int SCOMM_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[],
                                  const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                  const int recvcounts[], const int rdispls[],
                                  MPI_Datatype recvtype, SCOMM_Comm comm, MPI_Info info,
                                  SCOMM_Request *request);
int SCOMM_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
                                  const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                  void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                  const MPI_Datatype recvtypes[], SCOMM_Comm comm, MPI_Info info,
                                  SCOMM_Request *request);

/* Introspection: live communicators at this process and the context ids they hold. */
int SCOMM_Comm_live(int *communicators, int *contexts);

/* After MPI_Init: creates scomm's base communicators (SCOMM_BASE_COMMS duplicates of
 * MPI_COMM_WORLD, a power of two, by default enough for 2^20 context ids) and SCOMM_COMM_WORLD.
 * Environment:
 * SCOMM_DERIVE_BITS (0..6, default 4), SCOMM_CONTEXT_ALGORITHM (vanilla|bitmask|highest),
 * SCOMM_CONTEXT_STORAGE (array|fixed|tree|radix), SCOMM_DETACHED_SENDS (off|MIN:MAX bytes of
 * collective sends copied and let go of; default 257:4096 on Open MPI, off elsewhere). Before
 * MPI_Finalize: SCOMM_Finalize waits for those sends and frees every communicator and request
 * and the base communicators. */
int SCOMM_Init(void);
int SCOMM_Finalize(void);
/* As MPI_Initialized and MPI_Finalized, callable at any time, even before MPI_Init: whether
 * SCOMM_Init has ever succeeded; whether scomm has been finalized since (by SCOMM_Finalize, or
 * inside MPI_Finalize for a program that never called it). A new SCOMM_Init clears the latter. */
int SCOMM_Initialized(int *flag);
int SCOMM_Finalized(int *flag);
/* "scomm X.Y.Z on " and the base MPI's MPI_Get_library_version, callable at any time as MPI's is;
 * version holds SCOMM_MAX_LIBRARY_VERSION_STRING chars, *resultlen is the length without the 0. */
#define SCOMM_MAX_LIBRARY_VERSION_STRING (MPI_MAX_LIBRARY_VERSION_STRING + 32)
int SCOMM_Get_library_version(char *version, int *resultlen);
/* MPI_Abort on comm's base communicator, a duplicate of MPI_COMM_WORLD: every process of the job
 * ends, as Open MPI and MPICH do for any communicator, which MPI allows. errorcode becomes the job's
 * exit status where the launcher passes it on (mpirun, mpiexec). */
int SCOMM_Abort(SCOMM_Comm comm, int errorcode);
/* The largest tag a scomm message may carry (at least 2^15 - 1 - 256). */
int SCOMM_Tag_ub(int *tag_ub);
int SCOMM_Error_class(int errorcode, int *errorclass);

#ifdef __cplusplus
}
#endif

#endif /* SCOMM_H */
/* clang-format on */
