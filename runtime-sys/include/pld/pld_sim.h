/*
 * The simulator's device functions: what simulated kernels call for the
 * communication side of PTO (signals, fences, cache maintenance). The
 * simulator (crate pld-sim) implements them; each acts on the calling rank,
 * which the simulator binds to the thread before it runs a kernel.
 */
#ifndef PLD_SIM_H
#define PLD_SIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Notify operations and wait comparisons, numbered as pld's enums are
 * (NotifyOp AtomicAdd 0 Set 1, WaitCmp Eq 0 Ge 1; pto::comm numbers its
 * WaitCmp differently, GE = 3). */
#define PLD_NOTIFY_ATOMIC_ADD 0
#define PLD_NOTIFY_SET 1
#define PLD_WAIT_EQ 0
#define PLD_WAIT_GE 1

/* Names the op that makes the next device call on this thread: `site` is
 * the number the simulator's lowering gave that op (its name and source
 * location). Reports of the protocol explorer (races, missing fences,
 * deadlocks) name the op through it; a call without one (a builtin
 * kernel's) is named by its kernel. */
void pld_sim_at(int64_t site);

/* A scalar load (`write` 0) or store (1) of `bytes` bytes at `address`
 * by the op numbered `site` (pto.load_scalar, pto.store_scalar): returns
 * the address to access, `address` itself when the bytes lie inside a
 * window, a tile of the core or a buffer the run gave the kernel (as a
 * copy's side must), else a scratch cell of the simulator's after an error
 * of the run at the op. Under the protocol explorer a scheduling point,
 * and an access inside a window is checked like a copy. */
void *pld_sim_scalar(void *address, int64_t bytes, int32_t write, int64_t site);

/* Applies `op` with `value` to the i32 signal cell at `cell` (any rank's
 * window). */
void pld_sim_notify(int32_t *cell, int32_t value, int32_t op);

/* Blocks until the cell compares `cmp` to `expected`. If every live rank
 * is blocked past the run's deadline, the run is stopped as deadlocked and
 * this returns without the condition holding. */
void pld_sim_wait(const int32_t *cell, int32_t expected, int32_t cmp);

/* Whether the cell compares `cmp` to `expected` now (1 or 0). */
int32_t pld_sim_test(const int32_t *cell, int32_t expected, int32_t cmp);

/* An integer op of the kernel's own scalar code (the op numbered `site`)
 * whose result MLIR leaves undefined for its operands, `what`: 0 a
 * division or remainder by zero (arith.divsi, arith.remui, index.divs,
 * ...), 1 a signed division of its type's minimum by -1, 2 a shift
 * (arith.shli, index.shrs, ...) by its type's width or more, 3 a cf.assert
 * whose condition does not hold (the site names its message). An error of
 * the run at the op; the kernel goes on dividing by 1 or shifting by 0
 * (LLVM may otherwise assume the case away, and with it a later bounds
 * check, or the CPU faults). */
void pld_sim_undefined(int64_t site, int32_t what);

/* Reads the window base of peer `slot` - windowsIn's first slot from the
 * kernel's CommContext `context` (the pto.load_scalar of an i64 at a slot
 * not known to be in its header, op numbered `site`): the peer's
 * windowsIn entry when the peer is a rank of the comm domain (0 to
 * rankNum - 1); else an error of the run at the op naming the peer, and
 * 0, the base of no window, which the access then refuses (windowsIn[64]
 * read windowsOut[0], another rank's window, unreported, and a peer past
 * the context read whatever memory follows it). */
int64_t pld_sim_context_slot(const int64_t *context, int64_t slot, int64_t site);

/* Orders this rank's earlier global-memory writes before its later ones
 * (pto.fence.barrier_all). */
void pld_sim_fence(void);

/* Stands for a partition view at `address` that leaves its tensor view
 * (the op numbered `site`, a pto.partition_view whose offset + size in
 * dimension `dim` passes the tensor view's `extent` there): returns an
 * address in no window, tile or buffer, which the access through the view
 * reports at its op in these terms. Making such a view is no error; using
 * it is, under the protocol explorer too, where a notify, wait or test
 * through it goes to `address` (the explorer checks signal cells against
 * their signal's shape itself). */
void *pld_sim_view_outside(void *address, int64_t site, int64_t dim, int64_t offset,
                           int64_t size, int64_t extent);

/* Element kinds for accumulating copies (pld_sim_copy's `accumulate`). */
#define PLD_COPY_ASSIGN 0
#define PLD_COPY_ADD_F32 1
#define PLD_COPY_ADD_F16 2
#define PLD_COPY_ADD_I32 3

/* The calling core's tile buffer for allocation site `site` (a number the
 * simulator's lowering gives each pto.alloc_tile): `bytes` bytes,
 * 64-byte aligned, the same buffer every time the site runs (a loop reuses
 * it, and sees what the last tile left there, as UB; zeroed the first
 * time), released when the kernel returns. The buffers a core holds must fit
 * in an AIV core's 192 KiB UB; a kernel that needs more is an error of the
 * run naming the site. */
void *pld_sim_tile_alloc(int64_t site, int64_t bytes);

/* Copies a rows x cols block of `elem_bytes`-sized elements, strides in
 * elements (row, column) on each side; with an accumulate kind other than
 * PLD_COPY_ASSIGN, adds into the destination instead. An address inside a
 * window must stay inside that window (else the run records an error and
 * nothing is copied); bytes moved to or from another rank's window are
 * counted as remote traffic. */
void pld_sim_copy(void *dst, int64_t dst_row_stride, int64_t dst_col_stride, const void *src,
                  int64_t src_row_stride, int64_t src_col_stride, int64_t rows, int64_t cols,
                  int32_t elem_bytes, int32_t accumulate);

/* Zeroes the part of a rows x cols tile (row-major, `elem_bytes` elements)
 * outside its valid_rows x valid_cols corner. */
void pld_sim_fill_pad(void *data, int64_t rows, int64_t cols, int64_t valid_rows,
                      int64_t valid_cols, int32_t elem_bytes);

/* ---- Asynchronous DMA (TPUT_ASYNC / TGET_ASYNC, pto-interface 7) ----------
 *
 * A DMA copy is submitted, and lands at some moment between its submit and
 * the first successful wait or test on its event: never at a moment the
 * program could rely on. A plain run delivers it as late as it can (at
 * that wait, or at the second test); explore mode lets its seeded
 * scheduler choose (docs/memory-model.md). Until then the destination's
 * bytes are undefined and the source must not change. */

/* Engines (pto::comm::DmaEngine) and directions of a DMA. */
#define PLD_DMA_SDMA 0
#define PLD_DMA_URMA 1
#define PLD_DMA_PUT 0
#define PLD_DMA_GET 1
/* `peer` of a DMA that names no per-peer queue: outside the range of the
 * op's i32 peer operand, so that any value the kernel gives (-1 too) is
 * told apart from none. */
#define PLD_DMA_NO_PEER (-9223372036854775807LL - 1)

/* Submits a copy of the source's rows x cols block (strides in elements,
 * as pld_sim_copy) into the destination, whose view has `dst_elems`
 * elements, at least rows x cols (TPUT_ASYNC / TGET_ASYNC move all of the
 * source), on `engine` (PLD_DMA_*), a put (the destination is the peer's)
 * or a get (the source is). A URMA copy goes on the calling rank's queue to
 * `peer` (PER_PEER mode: one writer per queue), whose window must hold the
 * remote side; an SDMA copy names no peer. A copy of no element moves
 * nothing on either engine, and its event completes as any other. Returns the event's handle,
 * never 0 for a submitted copy; 0 when nothing was submitted (an error of
 * the run, recorded, such as a side leaving its window or a destination
 * shorter than the source). */
int64_t pld_sim_dma_submit(void *dst, int64_t dst_row_stride, int64_t dst_col_stride,
                           const void *src, int64_t src_row_stride, int64_t src_col_stride,
                           int64_t rows, int64_t cols, int64_t dst_elems, int32_t elem_bytes,
                           int32_t engine, int32_t direction, int64_t peer);

/* Blocks until the copy of `event` is complete (AsyncEvent::Wait with a
 * session on `engine`, PLD_DMA_*, or -1 for a session not built): 1, or 0
 * for an event that is not outstanding (an error of the run). Handle 0 is
 * complete at once. A session on another engine than the copy's is an
 * error of the run (the device polls the session's engine). */
int32_t pld_sim_dma_wait(int64_t event, int32_t engine);

/* Whether the copy of `event` is complete now (AsyncEvent::Test with a
 * session on `engine`): 1 or 0; once it said 1 the event is done, as after
 * a wait. */
int32_t pld_sim_dma_test(int64_t event, int32_t engine);


/* ---- Builtin-kernel runtime support (pld_runtime.h) ----------------------
 *
 * The rendered builtin entries submit their AIV kernel with
 * rt_submit_aiv_task (pld_runtime.h), which runs every launched block on a
 * thread of its own. These functions bind such a thread to the submitting
 * thread's simulated rank and carry the entries' fatal errors and log lines
 * to the simulator. */

/* An opaque handle of the rank (and run) the calling thread is bound to, or
 * null when the thread is not bound to a simulated rank. It stays valid
 * while the bound thread's current kernel or entry call runs (that is, for
 * as long as a launch started from it can last). */
void *pld_sim_rank_handle(void);

/* Binds the calling thread, which must not be bound yet, to the rank
 * `rank` (a handle from pld_sim_rank_handle) as block `block_idx` of a
 * launch of `block_num` blocks. Afterwards every device function called on
 * this thread acts on that rank, exactly as on the submitting thread
 * (counters, traces, errors, tile buffers). For deadlock detection the
 * block threads replace the submitting thread: while any block of a rank
 * is bound, the rank's submitting thread (which only joins them) counts as
 * parked, and each bound block thread counts as a live thread of the rank;
 * the run is deadlocked when every live thread of every live rank is
 * blocked in pld_sim_wait. block_idx / block_num may appear in traces and
 * deadlock reports. */
void pld_sim_block_enter(void *rank, int32_t block_idx, int32_t block_num);

/* Ends the binding made by pld_sim_block_enter on the calling thread: frees
 * the tile buffers this thread got from pld_sim_tile_alloc, stops counting
 * the thread as live and unbinds it. Called once per block_enter, after the
 * block's kernel returned. */
void pld_sim_block_exit(void);

/* Runs the `block_num` blocks of a launch from the calling thread (bound
 * to a rank) itself, when the simulator wants to: in explore mode every
 * simulated thread is a user-space fiber of one OS thread, and so is each
 * block, which calls `block(context, b)` (that function binds itself with
 * pld_sim_block_enter and unbinds with pld_sim_block_exit). Returns 1
 * once every block has returned (the blocks start when the scheduler
 * lets them, together as require_sync_start asks); 0 when nothing ran and
 * the caller starts a thread per block itself. Other ranks' fibers run on
 * this thread meanwhile, so the caller keeps its own thread-local state
 * across the call. */
typedef void (*PldSimBlockFn)(void *context, int32_t block_idx);
int32_t pld_sim_launch_blocks(int32_t block_num, PldSimBlockFn block, void *context);

/* Error codes of pld_sim_fatal (the runtime's numbering: PTO2_ERROR_*). */
#define PLD_FATAL_INVALID_ARGS 5
#define PLD_FATAL_REQUIRE_SYNC_START_INVALID 7

/* Records a fatal error of the calling rank's current call: `code` (one of
 * the codes above, or another runtime code) and a one-line `message`
 * (copied; not retained). The call that is running (the dispatch of a
 * builtin entry) fails with this error and the run reports it; it does not
 * unwind or abort, and returns to the caller, which stops submitting work.
 * Outside a bound thread it prints the message to stderr. */
void pld_sim_fatal(int32_t code, const char *message);

/* Appends one log line (`line`, without trailing newline; copied) to the
 * calling rank's log, e.g. the entries' launch-width line
 * "requested_core_num=<L> launched_core_num=<B> active_lanes=<n> nranks=<P>".
 * Outside a bound thread it prints the line to stderr. */
void pld_sim_log(const char *line);

#ifdef __cplusplus
}
#endif

#endif /* PLD_SIM_H */
