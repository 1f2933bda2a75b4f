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

/* Applies `op` with `value` to the i32 signal cell at `cell` (any rank's
 * window). */
void pld_sim_notify(int32_t *cell, int32_t value, int32_t op);

/* Blocks until the cell compares `cmp` to `expected`. If every live rank
 * is blocked past the run's deadline, the run is stopped as deadlocked and
 * this returns without the condition holding. */
void pld_sim_wait(const int32_t *cell, int32_t expected, int32_t cmp);

/* Whether the cell compares `cmp` to `expected` now (1 or 0). */
int32_t pld_sim_test(const int32_t *cell, int32_t expected, int32_t cmp);

/* Orders this rank's earlier global-memory writes before its later ones
 * (pto.fence.barrier_all). */
void pld_sim_fence(void);

/* Element kinds for accumulating copies (pld_sim_copy's `accumulate`). */
#define PLD_COPY_ASSIGN 0
#define PLD_COPY_ADD_F32 1
#define PLD_COPY_ADD_F16 2
#define PLD_COPY_ADD_I32 3

/* A tile buffer for this rank's running kernel: `bytes` zeroed bytes,
 * 64-byte aligned, released when the kernel returns. */
void *pld_sim_tile_alloc(int64_t bytes);

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

#ifdef __cplusplus
}
#endif

#endif /* PLD_SIM_H */
