// --emit-bytecode writes MLIR bytecode; pld-opt reads bytecode as input as
// well as text. Stock mlir-opt reads what pld-opt wrote (the pld types in it
// come from the IRDL file), and the text survives the round trip.
//
// RUN: pld-opt %s --emit-bytecode -o %t.mlirbc
// RUN: head -c 4 %t.mlirbc | od -An -c | FileCheck %s --check-prefix=MAGIC
// MAGIC: M   L 357   R
// RUN: pld-opt %t.mlirbc | FileCheck %s
// RUN: mlir-opt --irdl-file=%both_irdl %t.mlirbc | FileCheck %s
// RUN: pld-opt %t.mlirbc --pass-pipeline='builtin.module(pld-verify)' --emit-bytecode | pld-opt - | FileCheck %s
// CHECK: func.func @k(%arg0: tensor<1x64xf32, #pld.dist>, %arg1: tensor<2x1xi32, #pld.dist>)
// CHECK-NEXT: "pld.tensor_barrier"(%arg1)
//
// With --split-input-file see bytecode-split.mlir.

!data = tensor<1x64xf32, #pld.dist>
!sig = tensor<2x1xi32, #pld.dist>
func.func @k(%d: !data, %s: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %s2 = "pld.tensor_barrier"(%s) : (!sig) -> !sig
  return
}
