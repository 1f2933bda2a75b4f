// A kernel whose name holds a NUL byte is refused before it is compiled:
// LLVM's JIT names symbols by C strings, and the run failed with a raw
// "JIT session error" or crashed (status 134 or 139) now and then
// (recheck27b H1). The explorer pass compiles the same way.
//
// RUN: not pld-run %s --ranks 2 --no-cache 2>&1 | FileCheck %s
// RUN: not pld-run %s --ranks 2 --no-cache --explore 2 2>&1 | FileCheck %s
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-to-pto)' -o %t.pto.mlir
// RUN: not pld-opt %t.pto.mlir --pass-pipeline='builtin.module(pld-explore-protocol{schedules=1 ranks=2})' 2>&1 | FileCheck %s
// CHECK: error: {{.*}}@"k\00x" has a NUL byte in its name, which no compiled function can carry; rename it
// CHECK-NOT: JIT session error
func.func @"k\00x"(%s: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_barrier"(%s) : (tensor<2x1xi32, #pld.dist>) -> tensor<2x1xi32, #pld.dist>
  return
}
