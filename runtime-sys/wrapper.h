#include "pld/comm_context.h"
#include "pld/kernel_abi.h"
#include "pld/pld_sim.h"
#include "pld/pld_builtins.h"
