// shard.all_gather on a 2x4 grid: along tensor axis 1 over grid axis 1
// (two groups of four, two comm domains), along axis 0 over grid axis 0
// (four groups of two), and over both grid axes listed minor first
// ([1, 0]: keys and ranks differ, so the unpacking is one box per rank).
// Checked as IR, then run on 8 simulated devices: pld-run checks every
// pld.tensor_allgather against its golden, shard_golden.py every result
// against the shard semantics.
//
// RUN: split-file --leading-lines %s %t
// RUN: pld-opt %t/gather.mlir --pass-pipeline='builtin.module(convert-shard-to-pld)' | FileCheck %s
// RUN: python3 %S/../../../shard/shard_golden.py %t/gather.mlir --ranks 8 --work %t/run --check | FileCheck %s --check-prefix=GOLD

// The HOST orchestrator keeps the function's name. Values live in buffers
// of the whole grid (arg0, result0, ...), each collective's rows in
// buffers of its groups (_g0, _g1, ...).
// CHECK-LABEL: func.func @gather() attributes {pld.kind = #pld.func_kind<"host">}
// CHECK: "pld.tensor_alloc_window_buffer"(%{{.*}}) {name = "arg0"}
// CHECK-NEXT: "pld.tensor_window"(%{{.*}}) : (!pld.ptr) -> tensor<8x4xf32, #pld.dist>
// CHECK: {name = "all_gather0_in_g0"}
// CHECK-NEXT: -> tensor<1x32xf32, #pld.dist>
// CHECK: {name = "all_gather0_in_g1"}
// CHECK: {name = "all_gather0_out_g0"}
// CHECK-NEXT: -> tensor<4x32xf32, #pld.dist>
// CHECK: {name = "all_gather0_signal_g0"}
// CHECK-NEXT: -> tensor<4x1xi32, #pld.dist>
// CHECK: {name = "result0"}
// CHECK-NEXT: -> tensor<8x16xf32, #pld.dist>
// CHECK: {name = "all_gather1_in_g3"}
// CHECK: {name = "all_gather2_out"}
// CHECK-NEXT: -> tensor<8x32xf32, #pld.dist>
// Device 4 packs its input into the buffer of its group (g1).
// CHECK: "pld.dispatch"(%c4) ({
// CHECK-NEXT: func.call @gather__all_gather0_pack_chip(%1, %5)
// One pld.tensor_allgather per group: 2 over grid axis 1, 4 over grid
// axis 0, 1 over both.
// CHECK-COUNT-2: "pld.tensor_allgather"({{.*}}) : (tensor<1x32xf32, #pld.dist>, tensor<4x32xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<4x32xf32, #pld.dist>
// CHECK: "pld.dispatch"(%c0) ({
// CHECK-NEXT: func.call @gather__all_gather0_unpack_chip(
// CHECK-COUNT-4: "pld.tensor_allgather"({{.*}}) : (tensor<1x32xf32, #pld.dist>, tensor<2x32xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>)
// CHECK: "pld.tensor_allgather"({{.*}}) : (tensor<1x32xf32, #pld.dist>, tensor<8x32xf32, #pld.dist>, tensor<8x1xi32, #pld.dist>)

// Packing: the input as the one row the allgather moves.
// CHECK-LABEL: func.func @gather__all_gather0_pack(%arg0: tensor<8x4xf32, #pld.dist>, %arg1: tensor<1x32xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">}
// CHECK: %[[FLAT:.*]] = "pld.tensor_view"(%arg0) {{.*}} -> tensor<1x32xf32, #pld.dist>
// CHECK: %[[T:.*]] = "pld.tile_load"(%[[FLAT]], %c0, %c0) {{.*}} -> tensor<1x32xf32, #pld.tile>
// CHECK: "pld.tile_store"(%[[T]], %arg1, %c0, %c0)
// CHECK-LABEL: func.func @gather__all_gather0_pack_chip(
// CHECK-SAME: pld.kind = #pld.func_kind<"chip">
// CHECK-NEXT: call @gather__all_gather0_pack(%arg0, %arg1)

// Unpacking along axis 1: member s's rows [8s, 8s+8) of the gathered
// [32, 4] are columns [4s, 4s+4) of the [8, 16] result, in tiles padded to
// 32 bytes.
// CHECK-LABEL: func.func @gather__all_gather0_unpack(%arg0: tensor<4x32xf32, #pld.dist>, %arg1: tensor<8x16xf32, #pld.dist>)
// CHECK: %[[ROWS:.*]] = "pld.tensor_view"(%arg0) {{.*}} -> tensor<32x4xf32, #pld.dist>
// CHECK: scf.for %[[S:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[S]], %c8 : index
// CHECK-NEXT: %[[COL:.*]] = arith.muli %[[S]], %c4 : index
// CHECK-NEXT: %[[T:.*]] = "pld.tile_load"(%[[ROWS]], %[[ROW]], %c0, %c8, %c4) {{.*}} -> tensor<8x8xf32, #pld.tile_with<{valid_shape = array<i64: 8, 4>}>>
// CHECK-NEXT: "pld.tile_store"(%[[T]], %arg1, %c0, %[[COL]])

// Over grid axes [1, 0], device d = (d / 4, d % 4) has rank d and key
// (d % 4) * 2 + d / 4: rank 1 is key 2, so its row lands at rows [16, 24)
// of the result (element 64), and rank 4 is key 1 (element 32).
// CHECK-LABEL: func.func @gather__all_gather2_unpack(%arg0: tensor<8x32xf32, #pld.dist>, %arg1: tensor<64x4xf32, #pld.dist>)
// CHECK: %[[R1:.*]] = "pld.tile_load"(%arg0, %c1, %c0)
// CHECK-NEXT: "pld.tile_store"(%[[R1]], %{{.*}}, %c0, %c64)
// CHECK: %[[R4:.*]] = "pld.tile_load"(%arg0, %c4, %c0)
// CHECK-NEXT: "pld.tile_store"(%[[R4]], %{{.*}}, %c0, %c32)

// GOLD: @gather on 8 devices: 7 collective calls
// GOLD-COUNT-2: pld.tensor_allgather at {{.*}}gather.mlir:[[# @LINE + 12]]:14: f32 x 128, {{.*}}: ok on 4 ranks
// GOLD-COUNT-4: pld.tensor_allgather at {{.*}}gather.mlir:[[# @LINE + 12]]:11: f32 x 64, {{.*}}: ok on 2 ranks
// GOLD: pld.tensor_allgather at {{.*}}gather.mlir:[[# @LINE + 12]]:10: f32 x 256, {{.*}}: ok on 8 ranks
// GOLD: golden: result0 ok on 8 devices (128 elements each)
// GOLD: golden: result1 ok on 8 devices (64 elements each)
// GOLD: golden: result2 ok on 8 devices (256 elements each)
// GOLD-NOT: WRONG

//--- gather.mlir
shard.grid @grid(shape = 2x4)

func.func @gather(%x: tensor<8x4xf32>) -> (tensor<8x16xf32>, tensor<16x4xf32>, tensor<64x4xf32>) {
  %columns = shard.all_gather %x on @grid grid_axes = [1] gather_axis = 1 : tensor<8x4xf32> -> tensor<8x16xf32>
  %rows = shard.all_gather %x on @grid grid_axes = [0] gather_axis = 0 : tensor<8x4xf32> -> tensor<16x4xf32>
  %all = shard.all_gather %x on @grid grid_axes = [1, 0] gather_axis = 0 : tensor<8x4xf32> -> tensor<64x4xf32>
  return %columns, %rows, %all : tensor<8x16xf32>, tensor<16x4xf32>, tensor<64x4xf32>
}
