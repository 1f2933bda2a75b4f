/*
 * The simulator's only contact with MPI (Open MPI's C API): a handful of
 * plain functions over MPI's handles, which in Open MPI are addresses of
 * globals and macros (MPI_COMM_WORLD, MPI_SUM, MPI_INT32_T, MPI_REPLACE,
 * MPI_NO_OP) that Rust cannot name directly. Each returns MPI's error code
 * (MPI_SUCCESS is 0); sim/src/runtime/mpi.rs wraps them, with the reasons
 * each call is sound. The windows are opaque handles to Rust.
 *
 * One rank per process; MPI_THREAD_SERIALIZED is asked for and the Rust
 * side holds one lock around every call, so a rank's block threads take
 * turns.
 */
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Largest count one MPI call moves (int counts). */
#define PLD_MPI_CHUNK ((size_t)1 << 30)

static MPI_Comm node_comm = MPI_COMM_NULL;

int pld_mpi_launched(void) {
  /* The environment mpirun (orterun) and srun give every process. */
  return getenv("OMPI_COMM_WORLD_SIZE") != NULL || getenv("PMIX_RANK") != NULL ||
         getenv("PMI_RANK") != NULL;
}

/* Initialises MPI and splits the world by node: the processes that share
 * memory (MPI_COMM_TYPE_SHARED), and, when `per_node` > 0 (a test knob),
 * those again into pretended nodes of `per_node` consecutive ranks (never
 * across a real node, whose processes could not share a window). `leader`:
 * the world rank of this process's node's first process. */
int pld_mpi_init(int per_node, int *rank, int *size, int *node_size, int *leader) {
  int provided = 0;
  int rc = MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided);
  if (rc != MPI_SUCCESS) return rc;
  if (provided < MPI_THREAD_SERIALIZED) return MPI_ERR_OTHER;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  MPI_Comm shared = MPI_COMM_NULL;
  rc = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, *rank, MPI_INFO_NULL, &shared);
  if (rc != MPI_SUCCESS) return rc;
  /* The split is collective over the node: every process splits, or none
     does (processes given different counts are refused after this call,
     which then returns on all of them; a split on some waited forever). */
  int lo = 0, hi = 0;
  rc = MPI_Allreduce(&per_node, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (rc != MPI_SUCCESS) return rc;
  rc = MPI_Allreduce(&per_node, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rc != MPI_SUCCESS) return rc;
  if (per_node > 0 && lo == hi) {
    rc = MPI_Comm_split(shared, *rank / per_node, *rank, &node_comm);
    MPI_Comm_free(&shared);
    if (rc != MPI_SUCCESS) return rc;
  } else {
    node_comm = shared;
  }
  rc = MPI_Comm_size(node_comm, node_size);
  if (rc != MPI_SUCCESS) return rc;
  *leader = *rank;
  return MPI_Bcast(leader, 1, MPI_INT, 0, node_comm);
}

int pld_mpi_finalize(void) {
  if (node_comm != MPI_COMM_NULL) MPI_Comm_free(&node_comm);
  return MPI_Finalize();
}

int pld_mpi_barrier(void) { return MPI_Barrier(MPI_COMM_WORLD); }

void pld_mpi_error_string(int code, char *out, int capacity) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(code, text, &len) != MPI_SUCCESS) len = 0;
  if (capacity <= 0) return;
  if (len >= capacity) len = capacity - 1;
  memcpy(out, text, (size_t)len);
  out[len] = 0;
}

/* Info keys for windows used as pld's: accumulates need no ordering among
 * themselves (a flush orders what must be), and only one op per location
 * besides MPI_NO_OP (pld never mixes AtomicAdd and Set on a cell). */
static MPI_Info window_info(int shared) {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "accumulate_ordering", "none");
  MPI_Info_set(info, "accumulate_ops", "same_op_no_op");
  if (shared) MPI_Info_set(info, "alloc_shared_noncontig", "true");
  return info;
}

/* A window of `bytes` bytes per process, in one access epoch to every
 * process from here on (lock_all, MPI_MODE_NOCHECK). `shared`: on the node
 * communicator, mapped into every process of the node
 * (MPI_Win_allocate_shared); otherwise MPI_Win_allocate on MPI_COMM_WORLD.
 * The memory is zeroed. */
int pld_mpi_win_allocate(size_t bytes, int shared, void **base, void **handle) {
  MPI_Win *win = malloc(sizeof *win);
  if (win == NULL) return MPI_ERR_NO_MEM;
  MPI_Info info = window_info(shared);
  void *memory = NULL;
  int rc = shared ? MPI_Win_allocate_shared((MPI_Aint)bytes, 1, info, node_comm, &memory, win)
                  : MPI_Win_allocate((MPI_Aint)bytes, 1, info, MPI_COMM_WORLD, &memory, win);
  MPI_Info_free(&info);
  if (rc != MPI_SUCCESS) {
    free(win);
    return rc;
  }
  MPI_Win_set_errhandler(*win, MPI_ERRORS_RETURN);
  if (bytes > 0) memset(memory, 0, bytes);
  rc = MPI_Win_lock_all(MPI_MODE_NOCHECK, *win);
  if (rc == MPI_SUCCESS) rc = MPI_Barrier(MPI_COMM_WORLD);
  *base = memory;
  *handle = win;
  return rc;
}

/* A window over `bytes` bytes of this process's memory at `memory` (the
 * process's part of a shared window) on MPI_COMM_WORLD, so that processes
 * of other nodes reach it through RMA; in one access epoch to every
 * process, like the others. */
int pld_mpi_win_create(void *memory, size_t bytes, void **handle) {
  MPI_Win *win = malloc(sizeof *win);
  if (win == NULL) return MPI_ERR_NO_MEM;
  MPI_Info info = window_info(0);
  int rc = MPI_Win_create(memory, (MPI_Aint)bytes, 1, info, MPI_COMM_WORLD, win);
  MPI_Info_free(&info);
  if (rc != MPI_SUCCESS) {
    free(win);
    return rc;
  }
  MPI_Win_set_errhandler(*win, MPI_ERRORS_RETURN);
  rc = MPI_Win_lock_all(MPI_MODE_NOCHECK, *win);
  if (rc == MPI_SUCCESS) rc = MPI_Barrier(MPI_COMM_WORLD);
  *handle = win;
  return rc;
}

/* Whether the window is in MPI's unified memory model (a plain load of
 * the window's memory sees the updates of others' RMA calls). */
int pld_mpi_win_unified(void *handle, int *unified) {
  int *model = NULL;
  int found = 0;
  int rc = MPI_Win_get_attr(*(MPI_Win *)handle, MPI_WIN_MODEL, &model, &found);
  *unified = found && model != NULL && *model == MPI_WIN_UNIFIED;
  return rc;
}

/* The address in this process of node process `rank`'s segment of a
 * shared window. */
int pld_mpi_shared_query(void *handle, int rank, void **base) {
  MPI_Aint size = 0;
  int disp = 0;
  return MPI_Win_shared_query(*(MPI_Win *)handle, rank, &size, &disp, base);
}

int pld_mpi_win_free(void *handle) {
  MPI_Win *win = handle;
  int rc = MPI_Win_unlock_all(*win);
  int rc2 = MPI_Win_free(win);
  free(win);
  return rc != MPI_SUCCESS ? rc : rc2;
}

/* `bytes` bytes of `rank`'s window at byte `disp` into `out`, complete on
 * return. */
int pld_mpi_get(void *handle, void *out, size_t bytes, int rank, size_t disp) {
  MPI_Win win = *(MPI_Win *)handle;
  for (size_t done = 0; done < bytes; done += PLD_MPI_CHUNK) {
    size_t n = bytes - done < PLD_MPI_CHUNK ? bytes - done : PLD_MPI_CHUNK;
    int rc = MPI_Get((char *)out + done, (int)n, MPI_BYTE, rank, (MPI_Aint)(disp + done), (int)n,
                     MPI_BYTE, win);
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_Win_flush(rank, win);
}

/* `bytes` bytes of `data` into `rank`'s window at byte `disp`, complete at
 * the target on return (MPI_Win_flush). */
int pld_mpi_put(void *handle, const void *data, size_t bytes, int rank, size_t disp) {
  MPI_Win win = *(MPI_Win *)handle;
  for (size_t done = 0; done < bytes; done += PLD_MPI_CHUNK) {
    size_t n = bytes - done < PLD_MPI_CHUNK ? bytes - done : PLD_MPI_CHUNK;
    int rc = MPI_Put((const char *)data + done, (int)n, MPI_BYTE, rank, (MPI_Aint)(disp + done),
                     (int)n, MPI_BYTE, win);
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_Win_flush(rank, win);
}

/* An atomic update of the i32 cell at byte `disp` of `rank`'s window: add
 * `value` (`replace` 0, MPI_SUM) or store it (`replace` 1, MPI_REPLACE);
 * complete at the target on return. */
int pld_mpi_update_i32(void *handle, int32_t value, int replace, int rank, size_t disp) {
  MPI_Win win = *(MPI_Win *)handle;
  int rc = MPI_Accumulate(&value, 1, MPI_INT32_T, rank, (MPI_Aint)disp, 1, MPI_INT32_T,
                          replace ? MPI_REPLACE : MPI_SUM, win);
  if (rc != MPI_SUCCESS) return rc;
  return MPI_Win_flush(rank, win);
}

/* Adds `count` values at `data` (contiguous) into `rank`'s window from
 * byte `disp`, every `stride` elements (MPI_Accumulate with MPI_SUM;
 * `kind` 0: MPI_FLOAT, 1: MPI_INT32_T), complete at the target on return.
 * MPI makes each element's add atomic against every other accumulate of
 * the same op and predefined datatype on that element, whichever process
 * issues it (a strided target is a vector of that datatype). */
int pld_mpi_sum(void *handle, int kind, const void *data, int count, int stride, int rank,
                size_t disp) {
  MPI_Win win = *(MPI_Win *)handle;
  MPI_Datatype type = kind == 0 ? MPI_FLOAT : MPI_INT32_T;
  MPI_Datatype target = type;
  int target_count = count;
  if (stride != 1 && count > 1) {
    int rc = MPI_Type_vector(count, 1, stride, type, &target);
    if (rc == MPI_SUCCESS) rc = MPI_Type_commit(&target);
    if (rc != MPI_SUCCESS) return rc;
    target_count = 1;
  }
  int rc = MPI_Accumulate(data, count, type, rank, (MPI_Aint)disp, target_count, target, MPI_SUM,
                          win);
  if (target != type) MPI_Type_free(&target);
  if (rc != MPI_SUCCESS) return rc;
  return MPI_Win_flush(rank, win);
}

/* MPI_Compare_and_swap of the uint32 at byte `disp` of `rank`'s window:
 * `value` replaces it if it holds `compare`; `*seen` gets what it held.
 * Complete at the target on return. */
int pld_mpi_compare_and_swap_u32(void *handle, uint32_t compare, uint32_t value, int rank,
                                 size_t disp, uint32_t *seen) {
  MPI_Win win = *(MPI_Win *)handle;
  int rc = MPI_Compare_and_swap(&value, &compare, seen, MPI_UINT32_T, rank, (MPI_Aint)disp, win);
  if (rc != MPI_SUCCESS) return rc;
  return MPI_Win_flush(rank, win);
}

/* An atomic read of the i32 cell at byte `disp` of `rank`'s window
 * (MPI_Fetch_and_op with MPI_NO_OP), which also drives MPI's progress. */
int pld_mpi_read_i32(void *handle, int rank, size_t disp, int32_t *out) {
  MPI_Win win = *(MPI_Win *)handle;
  int rc = MPI_Fetch_and_op(NULL, out, MPI_INT32_T, rank, (MPI_Aint)disp, MPI_NO_OP, win);
  if (rc != MPI_SUCCESS) return rc;
  return MPI_Win_flush_local(rank, win);
}

/* `count` i64 values into `rank`'s window at byte `disp`, each atomically
 * (MPI_Accumulate, MPI_REPLACE), complete on return. */
int pld_mpi_store_i64(void *handle, const int64_t *values, int count, int rank, size_t disp) {
  MPI_Win win = *(MPI_Win *)handle;
  int rc = MPI_Accumulate(values, count, MPI_INT64_T, rank, (MPI_Aint)disp, count, MPI_INT64_T,
                          MPI_REPLACE, win);
  if (rc != MPI_SUCCESS) return rc;
  return MPI_Win_flush(rank, win);
}

/* `count` i64 values of `rank`'s window at byte `disp`, each read
 * atomically (MPI_Get_accumulate with MPI_NO_OP). */
int pld_mpi_load_i64(void *handle, int64_t *out, int count, int rank, size_t disp) {
  MPI_Win win = *(MPI_Win *)handle;
  int rc = MPI_Get_accumulate(NULL, 0, MPI_INT64_T, out, count, MPI_INT64_T, rank, (MPI_Aint)disp,
                              count, MPI_INT64_T, MPI_NO_OP, win);
  if (rc != MPI_SUCCESS) return rc;
  return MPI_Win_flush(rank, win);
}

/* Every process's `mine`, one per process in rank order, into `counts`. */
int pld_mpi_allgather_counts(int64_t mine, int64_t *counts) {
  return MPI_Allgather(&mine, 1, MPI_INT64_T, counts, 1, MPI_INT64_T, MPI_COMM_WORLD);
}

/* Every process's `count` bytes at `mine` (each process's own count),
 * concatenated in rank order into `out`: process r's `counts[r]` bytes at
 * `displs[r]`. */
int pld_mpi_allgather_bytes(const void *mine, int count, const int *counts, const int *displs,
                            void *out) {
  return MPI_Allgatherv(mine, count, MPI_BYTE, out, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
}
