/*
 * How kernels receive their arguments.
 *
 * Composite (InCore) kernels after convert-pld-to-pto take their parameters
 * in source order, each a GM pointer or a scalar, followed by one
 * CommContext pointer per distributed tensor parameter, in the same order
 * (pld-materialize-dist-tensor-ctx). The simulator calls them through
 * MLIR's packed interface: one pointer per argument.
 *
 * Builtin (CHIP-rail) kernels use fixed argument slots (design 6): tensors
 * in slots 0..4, the CommContext in slot 5, slots 6..7 reserved.
 */
#ifndef PLD_KERNEL_ABI_H
#define PLD_KERNEL_ABI_H

#include <stdint.h>

#include "comm_context.h" /* this directory */

#define PLD_KERNEL_TENSOR_SLOTS 5
#define PLD_KERNEL_COMM_CTX_SLOT 5
#define PLD_KERNEL_ARG_SLOTS 8

/* One argument slot: a GM address or a scalar, widened to 64 bits. */
typedef uint64_t PldKernelArg;

#endif /* PLD_KERNEL_ABI_H */
