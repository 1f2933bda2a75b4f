// Diagnostics print like mlir-opt's: the position, the message, the source
// line and a caret under the column.
//
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-lower-composite-ops)' 2>&1 | FileCheck %s
// CHECK: caret.mlir:[[@LINE+6]]:8: error: 'pld.tensor_allreduce' op mode must be "mesh", "ring", "two_shot" or "auto", got "star"
// CHECK-NEXT: {{^}}  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "star"} : (!d, !s) -> !d
// CHECK-NEXT: {{^}}       ^
!d = tensor<1x64xf32, #pld.dist>
!s = tensor<2x1xi32, #pld.dist>
func.func @k(%d: !d, %s: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "star"} : (!d, !s) -> !d
  return
}
