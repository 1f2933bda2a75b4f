// A kernel with a parameter that is not a tensor cannot be run: the
// simulator gives a kernel pointers to its tensors only (the message named
// pld-run, and the C API printed it too).
// RUN: not pld-run %s --ranks 2 2>&1 | FileCheck %s
// CHECK: scalar-parameter.mlir:[[# @LINE + 1]]:1: error: @k: parameter #0 has type i32; the simulator passes a kernel tensors only
func.func @k(%n: i32, %s: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}
