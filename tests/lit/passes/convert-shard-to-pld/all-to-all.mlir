// shard.all_to_all on a 2x4 grid: split and concatenated along axis 0, and
// split along axis 0 and concatenated along axis 1 (the received chunks
// transposed into columns), over grid axis 1; and split along axis 1 over
// grid axis 0. Checked as IR, then run on 8 simulated devices against
// pld-run's goldens and the shard semantics.
//
// RUN: split-file --leading-lines %s %t
// RUN: pld-opt %t/exchange.mlir --pass-pipeline='builtin.module(convert-shard-to-pld)' | FileCheck %s
// RUN: python3 %S/../../../shard/shard_golden.py %t/exchange.mlir --ranks 8 --work %t/run --check | FileCheck %s --check-prefix=GOLD

// CHECK-LABEL: func.func @exchange() attributes {pld.kind = #pld.func_kind<"host">}
// Four chunks of [2, 16] per device: rows of 32.
// CHECK: {name = "all_to_all0_in_g1"}
// CHECK-NEXT: -> tensor<4x32xf32, #pld.dist>
// CHECK: {name = "all_to_all0_out_g1"}
// CHECK-NEXT: -> tensor<4x32xf32, #pld.dist>
// CHECK: {name = "all_to_all0_signal_g1"}
// CHECK-NEXT: -> tensor<4x1xi32, #pld.dist>
// CHECK-COUNT-2: "pld.tensor_all_to_all"({{.*}}) : (tensor<4x32xf32, #pld.dist>, tensor<4x32xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<4x32xf32, #pld.dist>
// CHECK-COUNT-2: "pld.tensor_all_to_all"
// CHECK-COUNT-4: "pld.tensor_all_to_all"({{.*}}) : (tensor<2x64xf32, #pld.dist>, tensor<2x64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>)

// Concatenating along axis 1: the chunk from rank s ([2, 16], row s of the
// [4, 32] received rows, rows [2s, 2s+2) of the [8, 16] view) goes to
// columns [16s, 16s+16) of the [2, 64] result.
// CHECK-LABEL: func.func @exchange__all_to_all1_unpack(%arg0: tensor<4x32xf32, #pld.dist>, %arg1: tensor<2x64xf32, #pld.dist>)
// CHECK: %[[ROWS:.*]] = "pld.tensor_view"(%arg0) {{.*}} -> tensor<8x16xf32, #pld.dist>
// CHECK: scf.for %[[S:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[S]], %c2
// CHECK-NEXT: %[[COL:.*]] = arith.muli %[[S]], %c16
// CHECK-NEXT: %[[T:.*]] = "pld.tile_load"(%[[ROWS]], %[[ROW]], %c0) {{.*}} -> tensor<2x16xf32, #pld.tile>
// CHECK-NEXT: "pld.tile_store"(%[[T]], %arg1, %c0, %[[COL]])

// GOLD: @exchange on 8 devices: 8 collective calls
// GOLD-COUNT-4: pld.tensor_all_to_all at {{.*}}: f32 x 128, {{.*}}: ok on 4 ranks
// GOLD-COUNT-4: pld.tensor_all_to_all at {{.*}}: f32 x 128, {{.*}}: ok on 2 ranks
// GOLD: golden: result0 ok on 8 devices (128 elements each)
// GOLD: golden: result1 ok on 8 devices (128 elements each)
// GOLD: golden: result2 ok on 8 devices (128 elements each)
// GOLD-NOT: WRONG

//--- exchange.mlir
shard.grid @grid(shape = 2x4)

func.func @exchange(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<2x64xf32>, tensor<16x8xf32>) {
  %rows = shard.all_to_all %x on @grid grid_axes = [1] split_axis = 0 concat_axis = 0 : tensor<8x16xf32> -> tensor<8x16xf32>
  %columns = shard.all_to_all %x on @grid grid_axes = [1] split_axis = 0 concat_axis = 1 : tensor<8x16xf32> -> tensor<2x64xf32>
  %transposed = shard.all_to_all %x on @grid grid_axes = [0] split_axis = 1 concat_axis = 0 : tensor<8x16xf32> -> tensor<16x8xf32>
  return %rows, %columns, %transposed : tensor<8x16xf32>, tensor<2x64xf32>, tensor<16x8xf32>
}
