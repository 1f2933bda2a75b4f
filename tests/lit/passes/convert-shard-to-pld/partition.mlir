// From sharding annotations, as a user writes them: upstream
// shard-partition turns the resharding of each argument into a shard
// collective (all_gather, all_to_all, all_slice), and convert-shard-to-pld
// takes the partitioned function. pld-run does both (after
// sharding-propagation) for a module whose functions still hold annotations (run against the shard semantics,
// computed from the partitioned program); pld-opt runs them as one
// pipeline.
//
// RUN: split-file --leading-lines %s %t
// RUN: pld-opt %t/annotated.mlir --pass-pipeline='builtin.module(func.func(shard-partition),convert-shard-to-pld)' | FileCheck %s
// RUN: python3 %S/../../../shard/shard_golden.py %t/annotated.mlir --partition --ranks 8 --work %t/run --check | FileCheck %s --check-prefix=GOLD
// RUN: not pld-run %t/matmul.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=MATMUL
// RUN: not pld-opt %t/local.mlir --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition),convert-shard-to-pld)' 2>&1 | FileCheck %s --check-prefix=LOCAL
// RUN: not pld-run %t/local.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=LOCAL

// CHECK-LABEL: func.func @annotated() attributes {pld.kind = #pld.func_kind<"host">}
// The partitioned arguments: local shards.
// CHECK: {name = "arg1"}
// CHECK-NEXT: -> tensor<8x4xf32, #pld.dist>
// CHECK: {name = "arg2"}
// CHECK-NEXT: -> tensor<8x16xf32, #pld.dist>
// CHECK-COUNT-2: "pld.tensor_all_to_all"
// CHECK-COUNT-2: "pld.tensor_allgather"
// CHECK-LABEL: func.func @annotated__all_slice0(

// GOLD: @annotated on 8 devices: 4 collective calls
// GOLD-COUNT-2: pld.tensor_all_to_all at {{.*}}annotated.mlir:{{[0-9]+}}:{{[0-9]+}}: f32 x 32, {{.*}}: ok on 4 ranks
// GOLD-COUNT-2: pld.tensor_allgather at {{.*}}annotated.mlir:{{[0-9]+}}:{{[0-9]+}}: f32 x 128, {{.*}}: ok on 4 ranks
// GOLD: golden: result0 ok on 8 devices (128 elements each)
// GOLD: golden: result1 ok on 8 devices (32 elements each)
// GOLD: golden: result2 ok on 8 devices (32 elements each)
// GOLD-NOT: WRONG

// A matmul partitioned by sharding-propagation and shard-partition leaves
// per-device computation (tensor.empty, linalg) that convert-shard-to-pld
// does not take; it says where.
// MATMUL: matmul.mlir:[[# @LINE + 40]]:11: error: 'tensor.empty' op is not converted by convert-shard-to-pld

// A computation whose result alone is annotated partitions into a function
// without shard ops: it is converted all the same, so its per-device
// computation is refused where it starts (it used to be left unconverted,
// and pld-run then found no kernel).
// LOCAL: local.mlir:[[# @LINE + 45]]:8: error: 'tensor.empty' op is not converted by convert-shard-to-pld
// LOCAL-NEXT: %y = tensor.empty() : tensor<8x16xf32>
// LOCAL-NEXT: ^

//--- annotated.mlir
shard.grid @grid(shape = 2x4)

func.func @annotated(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>, %z: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %by_columns = shard.sharding @grid split_axes = [[], [1]] : !shard.sharding
  %by_rows = shard.sharding @grid split_axes = [[1]] : !shard.sharding
  %replicated = shard.sharding @grid split_axes = [[]] : !shard.sharding
  // Columns split over grid axis 1, wanted whole: an all_gather.
  %x0 = shard.shard %x to %by_columns : tensor<8x16xf32>
  %x1 = shard.shard %x0 to %replicated annotate_for_users : tensor<8x16xf32>
  // Columns wanted as rows: an all_to_all.
  %y0 = shard.shard %y to %by_columns : tensor<8x16xf32>
  %y1 = shard.shard %y0 to %by_rows annotate_for_users : tensor<8x16xf32>
  // Whole, wanted as rows: an all_slice.
  %z0 = shard.shard %z to %replicated : tensor<8x16xf32>
  %z1 = shard.shard %z0 to %by_rows annotate_for_users : tensor<8x16xf32>
  return %x1, %y1, %z1 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

//--- matmul.mlir
shard.grid @grid(shape = 4)

func.func @matmul(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %by_columns = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %by_rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %replicated = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a0 = shard.shard %a to %by_columns : tensor<8x16xf32>
  %b0 = shard.shard %b to %by_rows : tensor<16x8xf32>
  %a1 = shard.shard %a0 to %by_columns annotate_for_users : tensor<8x16xf32>
  %b1 = shard.shard %b0 to %by_rows annotate_for_users : tensor<16x8xf32>
  %zero = tensor.empty() : tensor<8x8xf32>
  %m = linalg.matmul ins(%a1, %b1 : tensor<8x16xf32>, tensor<16x8xf32>) outs(%zero : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m0 = shard.shard %m to %replicated : tensor<8x8xf32>
  return %m0 : tensor<8x8xf32>
}

//--- local.mlir
shard.grid @grid(shape = 4)

func.func @local(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %y = tensor.empty() : tensor<8x16xf32>
  %z = linalg.add ins(%x, %x : tensor<8x16xf32>, tensor<8x16xf32>) outs(%y : tensor<8x16xf32>) -> tensor<8x16xf32>
  %a = shard.shard %z to %s : tensor<8x16xf32>
  return %a : tensor<8x16xf32>
}
