// Upstream shard-partition (LLVM 22) crashes on two kinds of input; pld's
// drivers refuse them with an error at the op instead (exit status 1).
// (Two more, undivided splits and reshards in several steps, are in
// partition-steps.mlir.)
//
// RUN: split-file --leading-lines %s %t
// RUN: not pld-opt %t/uneven.mlir --pass-pipeline='builtin.module(func.func(shard-partition))' 2>&1 | FileCheck %s --check-prefix=UNEVEN
// RUN: not pld-opt %t/unannotated.mlir --pass-pipeline='builtin.module(func.func(shard-partition))' 2>&1 | FileCheck %s --check-prefix=UNANNOTATED
// RUN: sh -c 'pld-opt %t/uneven.mlir --pass-pipeline="builtin.module(func.func(shard-partition))" > /dev/null 2>&1; test $? -eq 1'
//
// With sharding-propagation first, the second is partitioned.
// RUN: pld-opt %t/unannotated.mlir --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition))' | FileCheck %s --check-prefix=PROPAGATED
//
// The first is what convert-shard-to-pld reshards itself, and pld-run runs
// it so (without shard-partition).
// RUN: pld-run %t/uneven.mlir --ranks 4 --check | FileCheck %s --check-prefix=RESHARD

// UNEVEN: uneven.mlir:[[# @LINE + 10]]:13: error: 'shard.sharding' op has sharded_dims_offsets, on which upstream shard-partition (LLVM 22) crashes; leave shard-partition out: convert-shard-to-pld reshards an unevenly sharded function argument itself
// UNANNOTATED: unannotated.mlir:[[# @LINE + 28]]:8: error: 'linalg.matmul' op has a tensor operand that no shard.shard annotates, on which upstream shard-partition (LLVM 22) crashes; run sharding-propagation before it
// PROPAGATED: shard.all_reduce
// RESHARD: @uneven on 4 devices: 1 collective call
// RESHARD: pld.tensor_all_to_all_v at {{.*}}: ok on 4 ranks

//--- uneven.mlir
shard.grid @grid(shape = 4)

func.func @uneven(%x: tensor<14x16xf32>) -> tensor<14x16xf32> {
  %uneven = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 2, 5, 9, 14] : !shard.sharding
  %replicated = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a = shard.shard %x to %uneven : tensor<14x16xf32>
  %b = shard.shard %a to %replicated annotate_for_users : tensor<14x16xf32>
  return %b : tensor<14x16xf32>
}

//--- unannotated.mlir
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
