// A collective given a pld.tensor_view of a parameter works on the view's
// shape (the same elements, row-major): pld-run's checks of the rank count
// and its --check golden take that shape, not the parameter's. Before, a
// reduce_scatter or allgather on a [3, N] view of a flat parameter was
// refused ("the target ... is [96]; on 3 ranks it needs 3 rows"), an
// allreduce with a valid_shape on a view had "no golden", and an
// all_to_all_v into a view was compared as rows one element wide (WRONG).
//
// RUN: split-file %s %t
// RUN: pld-run %t/reduce-scatter.mlir --ranks 3 --check | FileCheck %s --check-prefix=OK
// RUN: pld-run %t/allgather.mlir --ranks 3 --check | FileCheck %s --check-prefix=OK
// RUN: pld-run %t/valid.mlir --ranks 3 --check --input data=ones --output-dir %t/out | FileCheck %s --check-prefix=OK
// OK: rank 0: ok
// OK-NEXT: rank 1: ok
// OK-NEXT: rank 2: ok
// The numbers against the hand's: ones on 3 ranks, the 3x7 box of the 4x10
// view summed (3), the rest as it was (1).
// RUN: python3 %S/../../passes/convert-pld-to-pto/Inputs/npy.py range %t/out/data.rank0.npy %t/out/data.rank2.npy | FileCheck %s --check-prefix=VALID
// VALID: 1.0 3.0
// VALID-NEXT: 1.0 3.0

//--- reduce-scatter.mlir
func.func @k(%data: tensor<96xf32, #pld.dist>, %sig: tensor<3x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %v = "pld.tensor_view"(%data) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<96xf32, #pld.dist>) -> tensor<3x32xf32, #pld.dist>
  %r = "pld.tensor_reduce_scatter"(%v, %sig) {op = #pld.reduce_op<"sum">} : (tensor<3x32xf32, #pld.dist>, tensor<3x1xi32, #pld.dist>) -> tensor<3x32xf32, #pld.dist>
  return
}

//--- allgather.mlir
func.func @k(%in: tensor<1x16xf32>, %data: tensor<48xf32, #pld.dist>, %sig: tensor<3x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %v = "pld.tensor_view"(%data) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<48xf32, #pld.dist>) -> tensor<3x16xf32, #pld.dist>
  %r = "pld.tensor_allgather"(%in, %v, %sig) : (tensor<1x16xf32>, tensor<3x16xf32, #pld.dist>, tensor<3x1xi32, #pld.dist>) -> tensor<3x16xf32, #pld.dist>
  return
}

//--- valid.mlir
!v = tensor<4x10xf32, #pld.dist_with<{valid_shape = array<i64: 3, 7>}>>
func.func @k(%data: tensor<40xf32, #pld.dist>, %sig: tensor<3x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %v = "pld.tensor_view"(%data, %c3, %c7) {operandSegmentSizes = array<i32: 1, 0, 2>} : (tensor<40xf32, #pld.dist>, index, index) -> !v
  %r = "pld.tensor_allreduce"(%v, %sig) {op = #pld.reduce_op<"sum">} : (!v, tensor<3x1xi32, #pld.dist>) -> !v
  return
}
