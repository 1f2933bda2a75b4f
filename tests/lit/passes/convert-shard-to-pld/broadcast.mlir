// shard.broadcast on a 2x4 grid: from the device at index 2 along grid
// axis 1 (in each row), from index 1 along grid axis 0, and from root
// [1, 0] over grid axes [1, 0] (the device with coordinates (0, 1), key
// 1 * 2 + 0 = 2, rank 1 of the one group: pld's root counts ranks).
// The same three again with their roots written as SSA values the
// conversion folds (`root = [%two]`, `root = [%one, 0]`). Last, a root
// that differs between the groups (one per column, along grid axis 0:
// the column index mod 2), each group's own.
// Checked as IR, then run on 8 simulated devices against pld-run's goldens
// and the shard semantics.
//
// RUN: split-file --leading-lines %s %t
// RUN: pld-opt %t/broadcast.mlir --pass-pipeline='builtin.module(convert-shard-to-pld)' | FileCheck %s
// RUN: python3 %S/../../../shard/shard_golden.py %t/broadcast.mlir --ranks 8 --work %t/run --check | FileCheck %s --check-prefix=GOLD

// CHECK-LABEL: func.func @broadcast() attributes {pld.kind = #pld.func_kind<"host">}
// The broadcast builtin takes a rank-1 signal.
// CHECK: {name = "broadcast0_signal_g0"}
// CHECK-NEXT: -> tensor<4xi32, #pld.dist>
// CHECK-COUNT-2: "pld.tensor_broadcast"({{.*}}) {root = 2 : i64} : (tensor<1x48xf32, #pld.dist>, tensor<4xi32, #pld.dist>)
// CHECK-COUNT-4: "pld.tensor_broadcast"({{.*}}) {root = 1 : i64} : (tensor<1x48xf32, #pld.dist>, tensor<2xi32, #pld.dist>)
// CHECK: "pld.tensor_broadcast"({{.*}}) {root = 1 : i64} : (tensor<1x48xf32, #pld.dist>, tensor<8xi32, #pld.dist>)
// CHECK-COUNT-2: "pld.tensor_broadcast"({{.*}}) {root = 2 : i64} : (tensor<1x48xf32, #pld.dist>, tensor<4xi32, #pld.dist>)
// CHECK-COUNT-4: "pld.tensor_broadcast"({{.*}}) {root = 1 : i64} : (tensor<1x48xf32, #pld.dist>, tensor<2xi32, #pld.dist>)
// CHECK: "pld.tensor_broadcast"({{.*}}) {root = 1 : i64} : (tensor<1x48xf32, #pld.dist>, tensor<8xi32, #pld.dist>)
// CHECK: "pld.tensor_broadcast"({{.*}}) {root = 0 : i64} : (tensor<1x48xf32, #pld.dist>, tensor<2xi32, #pld.dist>)
// CHECK-NEXT: "pld.tensor_broadcast"({{.*}}) {root = 1 : i64} : (tensor<1x48xf32, #pld.dist>, tensor<2xi32, #pld.dist>)
// CHECK-NEXT: "pld.tensor_broadcast"({{.*}}) {root = 0 : i64} : (tensor<1x48xf32, #pld.dist>, tensor<2xi32, #pld.dist>)
// CHECK-NEXT: "pld.tensor_broadcast"({{.*}}) {root = 1 : i64} : (tensor<1x48xf32, #pld.dist>, tensor<2xi32, #pld.dist>)

// GOLD: @broadcast on 8 devices: 18 collective calls
// GOLD-COUNT-2: pld.tensor_broadcast at {{.*}}: f32 x 48 (root 2), {{.*}}: ok on 4 ranks
// GOLD-COUNT-4: pld.tensor_broadcast at {{.*}}: f32 x 48 (root 1), {{.*}}: ok on 2 ranks
// GOLD: pld.tensor_broadcast at {{.*}}: f32 x 48 (root 1), {{.*}}: ok on 8 ranks
// GOLD-COUNT-2: pld.tensor_broadcast at {{.*}}: f32 x 48 (root 2), {{.*}}: ok on 4 ranks
// GOLD-COUNT-4: pld.tensor_broadcast at {{.*}}: f32 x 48 (root 1), {{.*}}: ok on 2 ranks
// GOLD: pld.tensor_broadcast at {{.*}}: f32 x 48 (root 1), {{.*}}: ok on 8 ranks
// GOLD-COUNT-2: pld.tensor_broadcast at {{.*}}: f32 x 48 (root {{0|1}}), {{.*}}: ok on 2 ranks
// GOLD-COUNT-2: pld.tensor_broadcast at {{.*}}: f32 x 48 (root {{0|1}}), {{.*}}: ok on 2 ranks
// GOLD: golden: result0 ok on 8 devices (48 elements each)
// GOLD: golden: result1 ok on 8 devices (48 elements each)
// GOLD: golden: result2 ok on 8 devices (48 elements each)
// GOLD: golden: result3 ok on 8 devices (48 elements each)
// GOLD: golden: result4 ok on 8 devices (48 elements each)
// GOLD: golden: result5 ok on 8 devices (48 elements each)
// GOLD: golden: result6 ok on 8 devices (48 elements each)
// GOLD-NOT: WRONG

//--- broadcast.mlir
shard.grid @grid(shape = 2x4)

func.func @broadcast(%x: tensor<3x16xf32>) -> (tensor<3x16xf32>, tensor<3x16xf32>, tensor<3x16xf32>, tensor<3x16xf32>, tensor<3x16xf32>, tensor<3x16xf32>, tensor<3x16xf32>) {
  %row = shard.broadcast %x on @grid grid_axes = [1] root = [2] : (tensor<3x16xf32>) -> tensor<3x16xf32>
  %column = shard.broadcast %x on @grid grid_axes = [0] root = [1] : (tensor<3x16xf32>) -> tensor<3x16xf32>
  %all = shard.broadcast %x on @grid grid_axes = [1, 0] root = [1, 0] : (tensor<3x16xf32>) -> tensor<3x16xf32>
  %one = arith.constant 1 : index
  %two = arith.addi %one, %one : index
  %row_ssa = shard.broadcast %x on @grid grid_axes = [1] root = [%two] : (tensor<3x16xf32>, index) -> tensor<3x16xf32>
  %column_ssa = shard.broadcast %x on @grid grid_axes = [0] root = [%one] : (tensor<3x16xf32>, index) -> tensor<3x16xf32>
  %all_ssa = shard.broadcast %x on @grid grid_axes = [1, 0] root = [%one, 0] : (tensor<3x16xf32>, index) -> tensor<3x16xf32>
  %coords:2 = shard.process_multi_index on @grid axes = [0, 1] : index, index
  %parity = arith.remui %coords#1, %two : index
  %per_group = shard.broadcast %x on @grid grid_axes = [0] root = [%parity] : (tensor<3x16xf32>, index) -> tensor<3x16xf32>
  return %row, %column, %all, %row_ssa, %column_ssa, %all_ssa, %per_group : tensor<3x16xf32>, tensor<3x16xf32>, tensor<3x16xf32>, tensor<3x16xf32>, tensor<3x16xf32>, tensor<3x16xf32>, tensor<3x16xf32>
}
