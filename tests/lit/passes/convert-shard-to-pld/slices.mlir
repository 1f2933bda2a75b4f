// tensor.extract_slice of any rank (static sizes, unit strides, offsets
// constant or computed from device indices) is a kernel copying its box:
// the dimensions it takes whole join the one before them, as does the one
// after a dimension it takes one entry of; the last two left are the rows
// and columns of a box of the source seen as a matrix, the third last a
// loop of such boxes, and each index of those before one more loop.
// A function of a module with a grid that uses no shard op at all
// (forward.mlir: it returns its argument and a slice of it) is converted
// the same way: a HOST orchestrator whose kernels copy, without a
// collective. Checked as IR, then run on simulated devices against the
// shard semantics (tests/shard/shard_golden.py, which slices by index).
//
// RUN: split-file --leading-lines %s %t
// RUN: pld-opt %t/slices.mlir --pass-pipeline='builtin.module(convert-shard-to-pld)' | FileCheck %s
// RUN: python3 %S/../../../shard/shard_golden.py %t/slices.mlir --ranks 4 --work %t/slices | FileCheck %s --check-prefix=GOLD
// RUN: pld-opt %t/forward.mlir --pass-pipeline='builtin.module(convert-shard-to-pld)' | FileCheck %s --check-prefix=FORWARD
// RUN: python3 %S/../../../shard/shard_golden.py %t/forward.mlir --ranks 2 --work %t/forward | FileCheck %s --check-prefix=FORWARD-GOLD

// CHECK-LABEL: func.func @slices() attributes {pld.kind = #pld.func_kind<"host">}
// CHECK-NOT: "pld.tensor_{{(allreduce|allgather|all_to_all|reduce_scatter|broadcast)}}"
// CHECK: return

// [4, 6, 2] sliced [2r:2r+2, 3:6, 0:2]: the box [2r:2r+2, 6:12] of [4, 12].
// CHECK-LABEL: func.func @slices__slice0(
// CHECK: %[[X:.*]] = "pld.tensor_view"(%arg0) {{.*}} -> tensor<4x12xf32, #pld.dist>
// CHECK: "pld.tile_load"(%[[X]], %{{.*}}, %c6, %c2, %c6)
// CHECK-NOT: "pld.tile_load"

// [4, 6, 5] sliced [1:4, 2c:2c+3, 1:4]: three boxes [3, 3] of [24, 5], 6
// rows apart, from row 1*6 + 2c, column 1.
// CHECK-LABEL: func.func @slices__slice1(
// CHECK: %[[Y:.*]] = "pld.tensor_view"(%arg0) {{.*}} -> tensor<24x5xf32, #pld.dist>
// CHECK: scf.for %[[I:.*]] = %c0 to %c3 step %c1 {
// CHECK: %[[STEP:.*]] = arith.muli %[[I]], %c6 : index
// CHECK: "pld.tile_load"(%[[Y]], %{{.*}}, %c1, %c3, %c3)
// CHECK-NOT: "pld.tile_load"

// [3, 4, 5, 6] sliced [o:o+2, 1:3, 2:4, 1:5] (o = d % 2): one loop per
// index of the first dimension, each of two boxes [2, 4] of [60, 6], 5
// rows apart, from row ((o + i)*4 + 1)*5 + 2 = 20*o + 7 + 20*i.
// CHECK-LABEL: func.func @slices__slice2(
// CHECK: %[[Z:.*]] = "pld.tensor_view"(%arg0) {{.*}} -> tensor<60x6xf32, #pld.dist>
// CHECK: %[[O:.*]] = arith.remui %{{.*}}, %c2 : index
// CHECK-NEXT: %[[SCALED:.*]] = arith.muli %[[O]], %c20 : index
// CHECK-NEXT: %[[FIRST:.*]] = arith.addi %[[SCALED]], %c7 : index
// CHECK: %[[SECOND:.*]] = arith.addi %{{.*}}, %c27 : index
// CHECK: scf.for %[[I:.*]] = %c0 to %c2 step %c1 {
// CHECK: arith.addi %[[FIRST]]
// CHECK: "pld.tile_load"(%[[Z]], %{{.*}}, %c1, %c2, %c4)
// CHECK: scf.for %[[J:.*]] = %c0 to %c2 step %c1 {
// CHECK: arith.addi %[[SECOND]]
// CHECK: "pld.tile_load"(%[[Z]], %{{.*}}, %c1, %c2, %c4)
// CHECK-NOT: "pld.tile_load"

// A rank-reducing slice, [d:d+1, 2:5, 0:5] of [4, 6, 5] as [3, 5]: one run
// of 15 elements from 30*d + 10.
// CHECK-LABEL: func.func @slices__slice3(%arg0: tensor<4x6x5xf32, #pld.dist>, %arg1: tensor<3x5xf32, #pld.dist>)
// CHECK: "pld.tensor_view"(%arg0) {{.*}} -> tensor<1x120xf32, #pld.dist>
// CHECK: %[[ROWS:.*]] = arith.muli %{{.*}}, %c30 : index
// CHECK-NEXT: %[[START:.*]] = arith.addi %[[ROWS]], %c10 : index
// CHECK: "pld.tile_load"(%{{.*}}, %c0, %[[START]], %c1, %c15)

// GOLD: @slices on 4 devices: 0 collective calls
// GOLD: golden: result0 ok on 4 devices (12 elements each)
// GOLD: golden: result1 ok on 4 devices (27 elements each)
// GOLD: golden: result2 ok on 4 devices (32 elements each)
// GOLD: golden: result3 ok on 4 devices (15 elements each)
// GOLD: golden: result4 ok on 4 devices (12 elements each)
// GOLD-NOT: WRONG

// FORWARD-LABEL: func.func @forward() attributes {pld.kind = #pld.func_kind<"host">}
// FORWARD-DAG: {name = "arg0"}
// FORWARD-DAG: {name = "result0"}
// FORWARD-DAG: {name = "result1"}
// FORWARD-NOT: "pld.tensor_{{(allreduce|allgather|all_to_all|reduce_scatter|broadcast)}}"
// FORWARD-LABEL: func.func @forward__slice0(
// FORWARD-LABEL: func.func @forward__copy_result0(
// FORWARD-NOT: shard.grid

// FORWARD-GOLD: @forward on 2 devices: 0 collective calls
// FORWARD-GOLD: golden: result0 ok on 2 devices (48 elements each)
// FORWARD-GOLD: golden: result1 ok on 2 devices (12 elements each)
// FORWARD-GOLD-NOT: WRONG

//--- slices.mlir
shard.grid @grid(shape = 2x2)

func.func @slices(%x: tensor<4x6x2xf32>, %y: tensor<4x6x5xf32>, %z: tensor<3x4x5x6xf32>, %w: tensor<2x3x1x4x2xf32>) -> (tensor<2x3x2xf32>, tensor<3x3x3xf32>, tensor<2x2x2x4xf32>, tensor<3x5xf32>, tensor<1x3x1x2x2xf32>) {
  %c2 = arith.constant 2 : index
  %d = shard.process_linear_index on @grid : index
  %at:2 = shard.process_multi_index on @grid axes = [0, 1] : index, index
  %row = arith.muli %at#0, %c2 : index
  %col = arith.muli %at#1, %c2 : index
  %odd = arith.remsi %d, %c2 : index
  %s0 = tensor.extract_slice %x[%row, 3, 0] [2, 3, 2] [1, 1, 1] : tensor<4x6x2xf32> to tensor<2x3x2xf32>
  %s1 = tensor.extract_slice %y[1, %col, 1] [3, 3, 3] [1, 1, 1] : tensor<4x6x5xf32> to tensor<3x3x3xf32>
  %s2 = tensor.extract_slice %z[%odd, 1, 2, 1] [2, 2, 2, 4] [1, 1, 1, 1] : tensor<3x4x5x6xf32> to tensor<2x2x2x4xf32>
  %s3 = tensor.extract_slice %y[%d, 2, 0] [1, 3, 5] [1, 1, 1] : tensor<4x6x5xf32> to tensor<3x5xf32>
  %s4 = tensor.extract_slice %w[1, 0, 0, %col, 0] [1, 3, 1, 2, 2] [1, 1, 1, 1, 1] : tensor<2x3x1x4x2xf32> to tensor<1x3x1x2x2xf32>
  return %s0, %s1, %s2, %s3, %s4 : tensor<2x3x2xf32>, tensor<3x3x3xf32>, tensor<2x2x2x4xf32>, tensor<3x5xf32>, tensor<1x3x1x2x2xf32>
}

//--- forward.mlir
shard.grid @grid(shape = 2)

func.func @forward(%x: tensor<4x6x2xf32>) -> (tensor<4x6x2xf32>, tensor<2x3x2xf32>) {
  %s = tensor.extract_slice %x[1, 2, 0] [2, 3, 2] [1, 1, 1] : tensor<4x6x2xf32> to tensor<2x3x2xf32>
  return %x, %s : tensor<4x6x2xf32>, tensor<2x3x2xf32>
}
