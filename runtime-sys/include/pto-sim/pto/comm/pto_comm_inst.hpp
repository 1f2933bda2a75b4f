/* Shim at pto-isa's header path <pto/comm/pto_comm_inst.hpp>: the simulator's implementation of
 * the pto-isa subset pld's builtin kernels use (see pld/pto_sim.h). Put
 * runtime-sys/include/pto-sim on the include path instead of pto-isa's
 * include/ to build a kernel for the simulator. */
#include "pld/pto_sim.h"
