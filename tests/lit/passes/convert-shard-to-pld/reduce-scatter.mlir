// shard.reduce_scatter on a 2x4 grid. A sum becomes pld.tensor_reduce_scatter
// on the chunks laid out as rows (axis 0: a copy; axis 1: a transpose of
// [8, 4, 4] into [4, 8, 4]), each device then keeping the row of its rank.
// The HOST reduce_scatter builtin sums only, so a max or a min becomes a
// pld.tensor_allreduce of which each device keeps its chunk. Checked as IR,
// then run on 8 simulated devices against pld-run's goldens and the shard
// semantics.
//
// RUN: split-file --leading-lines %s %t
// RUN: pld-opt %t/scatter.mlir --pass-pipeline='builtin.module(convert-shard-to-pld)' | FileCheck %s
// RUN: python3 %S/../../../shard/shard_golden.py %t/scatter.mlir --ranks 8 --work %t/run --check | FileCheck %s --check-prefix=GOLD

// CHECK-LABEL: func.func @scatter() attributes {pld.kind = #pld.func_kind<"host">}
// CHECK: {name = "reduce_scatter0_rows_g0"}
// CHECK-NEXT: -> tensor<4x32xf32, #pld.dist>
// The builtin takes a rank-1 signal.
// CHECK: {name = "reduce_scatter0_signal_g0"}
// CHECK-NEXT: -> tensor<4xi32, #pld.dist>
// CHECK: {name = "reduce_scatter2_buf_g3"}
// CHECK-NEXT: -> tensor<1x128xf32, #pld.dist>
// CHECK-COUNT-4: "pld.tensor_reduce_scatter"({{.*}}) {op = #pld.reduce_op<"sum">} : (tensor<4x32xf32, #pld.dist>, tensor<4xi32, #pld.dist>)
// CHECK-COUNT-4: "pld.tensor_allreduce"({{.*}}) {mode = "two_shot", op = #pld.reduce_op<"max">} : (tensor<1x128xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>)
// CHECK-COUNT-4: "pld.tensor_allreduce"({{.*}}) {mode = "two_shot", op = #pld.reduce_op<"min">}

// Axis 1: chunk s (columns [4s, 4s+4) of [8, 16]) becomes row s, i.e. rows
// [8s, 8s+8) of the [32, 4] view.
// CHECK-LABEL: func.func @scatter__reduce_scatter1_pack(%arg0: tensor<8x16xf32, #pld.dist>, %arg1: tensor<4x32xf32, #pld.dist>)
// CHECK: %[[ROWS:.*]] = "pld.tensor_view"(%arg1) {{.*}} -> tensor<32x4xf32, #pld.dist>
// CHECK: scf.for %[[S:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT: %[[COL:.*]] = arith.muli %[[S]], %c4
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[S]], %c8
// CHECK-NEXT: %[[T:.*]] = "pld.tile_load"(%arg0, %c0, %[[COL]], %c8, %c4)
// CHECK-NEXT: "pld.tile_store"(%[[T]], %[[ROWS]], %[[ROW]], %c0)

// Each device keeps row `rank` (its coordinate along grid axis 1, computed
// from the device index, the rank of the world's CommContext).
// CHECK-LABEL: func.func @scatter__reduce_scatter1_unpack(%arg0: tensor<4x32xf32, #pld.dist>, %arg1: tensor<8x4xf32, #pld.dist>)
// CHECK: %[[CTX:.*]] = "pld.system_get_comm_ctx"(%arg1)
// CHECK-NEXT: %[[RANK:.*]] = "pld.system_rank"(%[[CTX]])
// CHECK-NEXT: %[[DEVICE:.*]] = arith.index_cast %[[RANK]] : i32 to index
// CHECK-NEXT: %[[KEY:.*]] = arith.remui %[[DEVICE]], %c4 : index
// CHECK-NEXT: %[[FIRST:.*]] = arith.muli %[[KEY]], %c8 : index
// CHECK-NEXT: "pld.tile_load"(%{{.*}}, %[[FIRST]], %c0, %c8, %c4)

// The max over grid axis 0 keeps chunk `d / 4` of the reduced [1, 128].
// CHECK-LABEL: func.func @scatter__reduce_scatter2_unpack(%arg0: tensor<1x128xf32, #pld.dist>, %arg1: tensor<4x16xf32, #pld.dist>)
// CHECK: %[[DEVICE:.*]] = arith.index_cast
// CHECK-NEXT: %[[KEY:.*]] = arith.divui %[[DEVICE]], %c4 : index
// CHECK-NEXT: %[[COL:.*]] = arith.muli %[[KEY]], %c64 : index
// CHECK-NEXT: "pld.tile_load"(%arg0, %c0, %[[COL]])

// GOLD: @scatter on 8 devices: 12 collective calls
// GOLD-COUNT-4: pld.tensor_reduce_scatter at {{.*}}: f32 x 128 (sum), {{.*}}: ok on 4 ranks
// GOLD-COUNT-4: pld.tensor_allreduce at {{.*}}: f32 x 128 (max, two_shot), {{.*}}: ok on 2 ranks
// GOLD-COUNT-4: pld.tensor_allreduce at {{.*}}: f32 x 128 (min, two_shot), {{.*}}: ok on 2 ranks
// GOLD: golden: result0 ok on 8 devices (32 elements each)
// GOLD: golden: result1 ok on 8 devices (32 elements each)
// GOLD: golden: result2 ok on 8 devices (64 elements each)
// GOLD: golden: result3 ok on 8 devices (64 elements each)
// GOLD-NOT: WRONG

//--- scatter.mlir
shard.grid @grid(shape = 2x4)

func.func @scatter(%x: tensor<8x16xf32>) -> (tensor<2x16xf32>, tensor<8x4xf32>, tensor<4x16xf32>, tensor<8x8xf32>) {
  %rows = shard.reduce_scatter %x on @grid grid_axes = [1] scatter_axis = 0 : tensor<8x16xf32> -> tensor<2x16xf32>
  %columns = shard.reduce_scatter %x on @grid grid_axes = [1] scatter_axis = 1 : tensor<8x16xf32> -> tensor<8x4xf32>
  %max = shard.reduce_scatter %x on @grid grid_axes = [0] reduction = max scatter_axis = 0 : tensor<8x16xf32> -> tensor<4x16xf32>
  %min = shard.reduce_scatter %x on @grid grid_axes = [0] reduction = min scatter_axis = 1 : tensor<8x16xf32> -> tensor<8x8xf32>
  return %rows, %columns, %max, %min : tensor<2x16xf32>, tensor<8x4xf32>, tensor<4x16xf32>, tensor<8x8xf32>
}
