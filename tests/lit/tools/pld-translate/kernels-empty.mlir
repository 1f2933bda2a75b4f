// A module with nothing to render writes an empty package (exit 0) and
// says so: an empty input, as a pld-opt that failed before a pipe leaves,
// gave an empty kernels.json and nothing else.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: pld-translate --emit=kernels %s -o %t/plain 2>&1 | FileCheck %s
// RUN: not pld-opt %t/missing.mlir 2>/dev/null | pld-translate --emit=kernels -o %t/piped 2>&1 | FileCheck %s --check-prefix=PIPED
// RUN: ls %t/piped | FileCheck %s --check-prefix=FILES
// CHECK: kernels-empty.mlir: warning: the module has no lowered collective (no pld.builtin_* dispatch, no CHIP orchestrator's collective): the package is empty
// PIPED: <stdin>: warning: the module has no lowered collective
// FILES: kernels.json
//
// --emit=pto says the same of a module without a converted kernel (it
// printed an empty module and nothing else: newuser25 L7).
// RUN: not pld-opt %t/missing.mlir 2>/dev/null | pld-translate --emit=pto 2>&1 | FileCheck %s --check-prefix=PTO
// PTO: <stdin>: warning: the module holds no converted kernel (no function with pto.kernel_kind): the PTO text is empty

func.func @f() {
  return
}
