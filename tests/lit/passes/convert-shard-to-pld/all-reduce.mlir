// shard.all_reduce on a 2x4 grid with each reduction pld computes: sum
// over grid axis 1 (two groups of four), max over grid axis 0 (four
// groups of two), min over the whole grid, product, an f16 sum, and a
// group of one device (no grid_axes), which is the identity, as the shard
// dialect's canonicalization folds it. Checked as IR, then run on 8
// simulated devices against pld-run's goldens and the shard semantics.
//
// RUN: split-file --leading-lines %s %t
// RUN: pld-opt %t/reduce.mlir --pass-pipeline='builtin.module(convert-shard-to-pld)' | FileCheck %s
// RUN: python3 %S/../../../shard/shard_golden.py %t/reduce.mlir --ranks 8 --work %t/run --check | FileCheck %s --check-prefix=GOLD

// CHECK-LABEL: func.func @reduce() attributes {pld.kind = #pld.func_kind<"host">}
// CHECK: {name = "all_reduce0_buf_g0"}
// CHECK-NEXT: -> tensor<1x32xf32, #pld.dist>
// The signals are synthesized, one cell per member of a group.
// CHECK: {name = "all_reduce0_signal_g1"}
// CHECK-NEXT: -> tensor<4x1xi32, #pld.dist>
// CHECK: {name = "all_reduce1_signal_g3"}
// CHECK-NEXT: -> tensor<2x1xi32, #pld.dist>
// CHECK: {name = "all_reduce2_signal"}
// CHECK-NEXT: -> tensor<8x1xi32, #pld.dist>
// CHECK: {name = "all_reduce4_buf_g0"}
// CHECK-NEXT: -> tensor<1x48xf16, #pld.dist>
// The group of one: result5 is a copy of the argument, no collective.
// CHECK: {name = "result5"}
// Devices 0-3 pack into group 0's buffer, devices 4-7 into group 1's.
// CHECK: "pld.dispatch"(%c3) ({
// CHECK-NEXT: func.call @reduce__all_reduce0_pack_chip(%[[ARG:[0-9]+]], %[[G0:[0-9]+]])
// CHECK: "pld.dispatch"(%c4) ({
// CHECK-NEXT: func.call @reduce__all_reduce0_pack_chip(%[[ARG]], %[[G1:[0-9]+]])
// CHECK: "pld.tensor_allreduce"(%[[G0]], %{{.*}}) {mode = "two_shot", op = #pld.reduce_op<"sum">} : (tensor<1x32xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>)
// CHECK-NEXT: "pld.tensor_allreduce"(%[[G1]], %{{.*}}) {mode = "two_shot", op = #pld.reduce_op<"sum">}
// CHECK-COUNT-4: "pld.tensor_allreduce"({{.*}}) {mode = "two_shot", op = #pld.reduce_op<"max">} : (tensor<1x32xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>)
// CHECK: "pld.tensor_allreduce"({{.*}}) {mode = "two_shot", op = #pld.reduce_op<"min">} : (tensor<1x32xf32, #pld.dist>, tensor<8x1xi32, #pld.dist>)
// CHECK-COUNT-2: "pld.tensor_allreduce"({{.*}}) {mode = "two_shot", op = #pld.reduce_op<"prod">}
// CHECK-COUNT-2: "pld.tensor_allreduce"({{.*}}) {mode = "two_shot", op = #pld.reduce_op<"sum">} : (tensor<1x48xf16, #pld.dist>, tensor<4x1xi32, #pld.dist>)
// CHECK: func.call @reduce__copy_result5_chip
// CHECK-NOT: pld.tensor_allreduce
// CHECK: return

// CHECK-LABEL: func.func @reduce__all_reduce0_unpack(%arg0: tensor<1x32xf32, #pld.dist>, %arg1: tensor<4x8xf32, #pld.dist>)
// CHECK: %[[FLAT:.*]] = "pld.tensor_view"(%arg1) {{.*}} -> tensor<1x32xf32, #pld.dist>
// CHECK: %[[T:.*]] = "pld.tile_load"(%arg0, %c0, %c0) {{.*}} -> tensor<1x32xf32, #pld.tile>
// CHECK: "pld.tile_store"(%[[T]], %[[FLAT]], %c0, %c0)

// GOLD: @reduce on 8 devices: 11 collective calls
// GOLD-COUNT-2: (sum, two_shot), {{.*}}: ok on 4 ranks
// GOLD-COUNT-4: (max, two_shot), {{.*}}: ok on 2 ranks
// GOLD: (min, two_shot), {{.*}}: ok on 8 ranks
// GOLD-COUNT-2: (prod, two_shot), {{.*}}: ok on 4 ranks
// GOLD-COUNT-2: f16 x 48 (sum, two_shot), {{.*}}: ok on 4 ranks
// GOLD: golden: result0 ok on 8 devices (32 elements each)
// GOLD: golden: result1 ok on 8 devices
// GOLD: golden: result2 ok on 8 devices
// GOLD: golden: result3 ok on 8 devices
// GOLD: golden: result4 ok on 8 devices (48 elements each)
// GOLD: golden: result5 ok on 8 devices
// GOLD-NOT: WRONG

//--- reduce.mlir
shard.grid @grid(shape = 2x4)

func.func @reduce(%x: tensor<4x8xf32>, %h: tensor<3x16xf16>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<3x16xf16>, tensor<4x8xf32>) {
  %sum = shard.all_reduce %x on @grid grid_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  %max = shard.all_reduce %x on @grid grid_axes = [0] reduction = max : tensor<4x8xf32> -> tensor<4x8xf32>
  %min = shard.all_reduce %x on @grid grid_axes = [0, 1] reduction = min : tensor<4x8xf32> -> tensor<4x8xf32>
  %product = shard.all_reduce %x on @grid grid_axes = [1] reduction = product : tensor<4x8xf32> -> tensor<4x8xf32>
  %half = shard.all_reduce %h on @grid grid_axes = [1] : tensor<3x16xf16> -> tensor<3x16xf16>
  %alone = shard.all_reduce %x on @grid : tensor<4x8xf32> -> tensor<4x8xf32>
  return %sum, %max, %min, %product, %half, %alone : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<3x16xf16>, tensor<4x8xf32>
}
