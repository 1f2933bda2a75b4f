// A function with sharding annotations that already holds shard
// collectives is partitioned: pld-run no longer runs upstream
// sharding-propagation on it, which stopped at the collective with
// "'shard.all_reduce' op sharding interface is not implemented" (printed
// twice) where pld-opt's convert-shard-to-pld converts it (mixed.mlir), or
// gives its own located refusal (annotated.mlir).
//
// RUN: split-file %s %t
// RUN: pld-run %t/mixed.mlir --ranks 4 --check | FileCheck %s --check-prefix=MIXED
// MIXED: @f on 4 devices: 2 collective calls
// MIXED: pld.tensor_allreduce at {{.*}}mixed.mlir:3:10: f32 x 32 (sum, two_shot), {{.*}}: ok on 4 ranks
// MIXED: pld.tensor_all_to_all_v at {{.*}}mixed.mlir:6:8: f32 x 64, {{.*}}: ok on 4 ranks
// RUN: not pld-run %t/annotated.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=ANNOTATED
// ANNOTATED: annotated.mlir:5:8: error: 'shard.shard' op is a sharding annotation; convert-shard-to-pld takes partitioned functions (run shard-partition first)
// ANNOTATED-NOT: sharding interface is not implemented

//--- mixed.mlir
shard.grid @g(shape = 4)
func.func @f(%x: tensor<8x4xf32>, %rows: tensor<16x4xf32>) -> (tensor<8x4xf32>, tensor<16x4xf32>) {
  %sum = shard.all_reduce %x on @g grid_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
  %even = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %whole = shard.sharding @g split_axes = [[]] : !shard.sharding
  %a = shard.shard %rows to %even : tensor<16x4xf32>
  %b = shard.shard %a to %whole annotate_for_users : tensor<16x4xf32>
  return %sum, %b : tensor<8x4xf32>, tensor<16x4xf32>
}
//--- annotated.mlir
shard.grid @grid(shape = 4)
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %a = shard.shard %r to %s : tensor<8xf32>
  return %a : tensor<8xf32>
}
