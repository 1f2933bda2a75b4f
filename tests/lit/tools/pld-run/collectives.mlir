// pld-run --check knows the semantics of the composite collectives:
// broadcast, reduce_scatter, allgather and all_to_all run on 3 ranks and
// every rank's result is compared with the golden.
//
// RUN: split-file %s %t
// RUN: pld-run %t/broadcast.mlir --ranks 3 --check | FileCheck %s
// RUN: pld-run %t/reduce_scatter.mlir --ranks 3 --check | FileCheck %s
// RUN: pld-run %t/allgather.mlir --ranks 3 --check | FileCheck %s
// RUN: pld-run %t/all_to_all.mlir --ranks 3 --check | FileCheck %s
// all_to_all_v, capacity 2 rows per sender. With the default ramp the
// send counts are [-5, 2, -2], [-2, 4, 0] and [0, -4, 3] on ranks 0, 1, 2
// (negative, zero, the capacity, over it); with `rank` every rank sends r
// rows to everyone (0, 1, 2). The received counts are checked too.
// RUN: pld-run %t/all_to_all_v.mlir --ranks 3 --check | FileCheck %s
// RUN: pld-run %t/all_to_all_v.mlir --ranks 3 --input arg3=rank --check | FileCheck %s
// CHECK: rank 0: ok
// CHECK-NEXT: rank 1: ok
// CHECK-NEXT: rank 2: ok

//--- broadcast.mlir
func.func @k(%t: tensor<2x40xf32, #pld.dist>, %s: tensor<3x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_broadcast"(%t, %s) {root = 2 : i64} : (tensor<2x40xf32, #pld.dist>, tensor<3x1xi32, #pld.dist>) -> tensor<2x40xf32, #pld.dist>
  return
}

//--- reduce_scatter.mlir
func.func @k(%t: tensor<3x24xf32, #pld.dist>, %s: tensor<3x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_reduce_scatter"(%t, %s) {op = #pld.reduce_op<"sum">} : (tensor<3x24xf32, #pld.dist>, tensor<3x1xi32, #pld.dist>) -> tensor<3x24xf32, #pld.dist>
  return
}

//--- allgather.mlir
func.func @k(%i: tensor<1x24xf32>, %t: tensor<3x24xf32, #pld.dist>, %s: tensor<3x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allgather"(%i, %t, %s) : (tensor<1x24xf32>, tensor<3x24xf32, #pld.dist>, tensor<3x1xi32, #pld.dist>) -> tensor<3x24xf32, #pld.dist>
  return
}

//--- all_to_all.mlir
func.func @k(%i: tensor<3x24xf32>, %t: tensor<3x24xf32, #pld.dist>, %s: tensor<3x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_all_to_all"(%i, %t, %s) : (tensor<3x24xf32>, tensor<3x24xf32, #pld.dist>, tensor<3x1xi32, #pld.dist>) -> tensor<3x24xf32, #pld.dist>
  return
}

//--- all_to_all_v.mlir
// 3 ranks, 2 rows of capacity per sender; the counts come from .npy files.
func.func @k(%i: tensor<6x8xf32>, %t: tensor<6x8xf32, #pld.dist>, %s: tensor<3x1xi32, #pld.dist>, %c: tensor<3xi32>, %rc: tensor<3x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %rc) : (tensor<6x8xf32>, tensor<6x8xf32, #pld.dist>, tensor<3x1xi32, #pld.dist>, tensor<3xi32>, tensor<3x1xi32, #pld.dist>) -> tensor<6x8xf32, #pld.dist>
  return
}
