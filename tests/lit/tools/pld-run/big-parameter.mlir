// A parameter larger than the simulator's 16 GiB per buffer is refused at
// its kernel, with the source line and a caret (it had no location; a
// parameter of exactly 16 GiB had one, from the memory check).
//
// RUN: not pld-run %s --ranks 2 2>&1 | FileCheck %s
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-to-pto)' | not pld-run - --ranks 2 2>&1 | FileCheck %s --check-prefix=PTO
// CHECK: big-parameter.mlir:[[@LINE+4]]:1: error: @k: parameter #0 is larger than the simulator's 16 GiB per buffer
// CHECK-NEXT: func.func @k(%data: tensor<1x4294967297xf32, #pld.dist>
// CHECK-NEXT: {{^\^}}
// PTO: <stdin>:{{[0-9]+}}:3: error: @k: parameter #0 is larger than the simulator's 16 GiB per buffer
func.func @k(%data: tensor<1x4294967297xf32, #pld.dist>, %sig: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<1x4294967297xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x4294967297xf32, #pld.dist>
  return
}
