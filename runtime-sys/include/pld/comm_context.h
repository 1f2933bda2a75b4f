/*
 * The runtime CommContext every device kernel receives (spec 9.1), one per
 * distributed tensor argument. Kernels read it as u64 slots: slot 2 holds
 * rankId (low half) and rankNum (high half), slots 4.. hold windowsIn.
 *
 * This header is the single source of the layout: the Rust side
 * (pld-runtime-sys, through bindgen) and the compiler's ABI constants
 * (pld-backend) are derived from it, and the asserts below make any drift a
 * compile error in C, C++ and Rust alike.
 */
#ifndef PLD_COMM_CONTEXT_H
#define PLD_COMM_CONTEXT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#define PLD_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define PLD_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

/* Ranks one context can address. */
#define PLD_COMM_MAX_RANK_NUM 64
/* Alignment of every comm buffer inside a window, in bytes. */
#define PLD_COMM_BUFFER_ALIGNMENT 32

/* Byte offsets the generated code relies on. */
#define PLD_RANK_ID_OFFSET 16
#define PLD_RANK_NUM_OFFSET 20
#define PLD_WINDOWS_IN_OFFSET 32
#define PLD_WINDOWS_OUT_OFFSET 544
#define PLD_WINDOW_SLOT_STRIDE 8
#define PLD_COMM_CTX_SIZE 1056

typedef struct PldCommContext {
  uint64_t workSpace;
  uint64_t workSpaceSize;
  uint32_t rankId;
  uint32_t rankNum;
  uint64_t winSize;
  /* Base address of each rank's window (symmetric layout across ranks). */
  uint64_t windowsIn[PLD_COMM_MAX_RANK_NUM];
  uint64_t windowsOut[PLD_COMM_MAX_RANK_NUM];
} PldCommContext;

PLD_STATIC_ASSERT(offsetof(PldCommContext, rankId) == PLD_RANK_ID_OFFSET, "rankId offset");
PLD_STATIC_ASSERT(offsetof(PldCommContext, rankNum) == PLD_RANK_NUM_OFFSET, "rankNum offset");
PLD_STATIC_ASSERT(PLD_RANK_NUM_OFFSET == PLD_RANK_ID_OFFSET + 4,
                  "rankId and rankNum share one u64 slot");
PLD_STATIC_ASSERT(offsetof(PldCommContext, windowsIn) == PLD_WINDOWS_IN_OFFSET,
                  "windowsIn offset");
PLD_STATIC_ASSERT(offsetof(PldCommContext, windowsOut) == PLD_WINDOWS_OUT_OFFSET,
                  "windowsOut offset");
PLD_STATIC_ASSERT(sizeof(((PldCommContext *)0)->windowsIn[0]) == PLD_WINDOW_SLOT_STRIDE,
                  "window slot stride");
PLD_STATIC_ASSERT(sizeof(PldCommContext) == PLD_COMM_CTX_SIZE, "CommContext size");

#endif /* PLD_COMM_CONTEXT_H */
