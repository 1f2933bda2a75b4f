// An op written in custom syntax: MLIR refuses it without a reason; every
// tool says what is wrong, where, and how pld ops are written.
//
// RUN: not pld-opt %s 2>&1 | FileCheck %s
// RUN: not pld-translate --emit=pto %s 2>&1 | FileCheck %s
// RUN: not pld-run %s 2>&1 | FileCheck %s
// CHECK: custom-syntax.mlir:[[@LINE+5]]:8: error: 'pld.tensor_barrier' is written in custom syntax, which pld and pto ops do not have; write it in the generic form: %r = "pld.tensor_barrier"(%operands) {attributes} : (operand types) -> result type
// CHECK-NEXT: {{^}}  %r = pld.tensor_barrier %d : tensor<4x1xi32, #pld.dist>
// CHECK-NEXT: {{^}}       ^

func.func @k(%d: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = pld.tensor_barrier %d : tensor<4x1xi32, #pld.dist>
  return
}
