/*
 * The registry of the builtin kernels that runtime-sys's build script
 * renders from builtins/templates and compiles into the simulator's static
 * library (pld_builtins.cpp, generated). Each variant is one rendered
 * entry (the chip orchestration) and its AIV kernel; the registry calls
 * an entry the way the runtime would, on the calling thread, which must
 * be bound to a simulated rank (pld_sim.h).
 *
 * Tensor arguments are 128-byte descriptors as pld_runtime.h's PldTensor
 * (pto-interface 4.2) lays them out; they are passed as an array of
 * PLD_BUILTIN_TENSOR_DESC_SIZE-byte records.
 */
#ifndef PLD_BUILTINS_H
#define PLD_BUILTINS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PLD_BUILTIN_TENSOR_DESC_SIZE 128
#define PLD_BUILTIN_MAX_TENSORS 16
#define PLD_BUILTIN_MAX_SCALARS 32

/* Results of pld_builtin_call. */
#define PLD_BUILTIN_OK 0
#define PLD_BUILTIN_FATAL 1
#define PLD_BUILTIN_NO_SUCH_VARIANT (-1)
#define PLD_BUILTIN_BAD_ARGUMENTS (-2)
#define PLD_BUILTIN_NO_ENTRY (-3)

/* The calling thread's per-core state of the simulated pto-isa
 * instructions (set_flag counts, UB claims: pto_sim.h), an opaque
 * pointer: replaces it with `state` (null: none yet, made on first use)
 * and returns the one it had. The simulator swaps it when it runs several
 * simulated cores as fibers of one thread; pld_builtin_core_free frees one
 * it took. */
void *pld_builtin_core_swap(void *state);
void pld_builtin_core_free(void *state);

/* Number of compiled variants (the HOST ones, then the CHIP-only kernels,
 * which have no entry, then the test-only broken copies, whose variant
 * names start with "broken."). */
int32_t pld_builtin_count(void);

/* The variant string (spec 10.3), entry symbol and kernel symbol of
 * variant `index`, or null when out of range (the entry is null for a
 * CHIP-only kernel). Static strings. */
const char *pld_builtin_variant(int32_t index);
const char *pld_builtin_entry(int32_t index);
const char *pld_builtin_kernel(int32_t index);

/* Calls the entry of variant `index` (PLD_BUILTIN_NO_ENTRY for a
 * CHIP-only kernel) with `tensor_count` descriptors and
 * `scalar_count` scalars as orchestration arguments (spec 10.3 order),
 * after binding func_id 0 to the variant's kernel and setting the device's
 * AIV count to `aiv_limit`. Writes the entry's expected_arg_count to
 * *expected (when not null). Returns PLD_BUILTIN_OK, PLD_BUILTIN_FATAL when
 * the entry (or its submit) reported a fatal error, or a negative value
 * when nothing was called. */
int32_t pld_builtin_call(int32_t index, const void *tensors, int32_t tensor_count,
                         const uint64_t *scalars, int32_t scalar_count, int32_t aiv_limit,
                         int32_t *expected);

/* Launches variant `index`'s kernel itself, as a CHIP orchestrator
 * submits a task: `block_num` blocks (all started together when more than
 * one), the kernel's arguments the `tensor_count` descriptors, then the
 * `scalar_count` scalars, with the device's AIV count `aiv_limit`. Returns
 * as pld_builtin_call (the launch's fatal errors included). */
int32_t pld_builtin_launch(int32_t index, const void *tensors, int32_t tensor_count,
                           const uint64_t *scalars, int32_t scalar_count, int32_t block_num,
                           int32_t aiv_limit);

/* CalAllToAllVBlocks of pld_runtime.h, as the entries compute it. */
int32_t pld_builtin_all_to_all_v_blocks(int32_t ranks, int32_t requested);

/* offsetof of PldTensor's fields as the C++ side lays them out, in the
 * order buffer.addr, buffer.size, start_offset, ndims, dtype, shapes,
 * strides, sizeof; for a layout check on the Rust side. */
void pld_builtin_tensor_layout(uint32_t out[8]);

#ifdef __cplusplus
}
#endif

#endif /* PLD_BUILTINS_H */
