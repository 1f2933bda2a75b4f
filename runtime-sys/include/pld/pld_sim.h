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

/* Notify operations and wait comparisons: the spec's ABI values. */
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

#ifdef __cplusplus
}
#endif

#endif /* PLD_SIM_H */
