// Upstream shard-partition (LLVM 22) builds wrong IR for two more kinds of
// input; pld's drivers refuse them with an error at the op (exit status 1):
// - an even split of a static axis over a device count that does not
//   divide it (it cut every shard to the rounded-down size, then failed on
//   a `tensor.cast` the source never had);
// - a reshard in more than one of the steps it knows (one grid axis added
//   to or removed from the end of one tensor axis's list, or the one grid
//   axis of a tensor axis moved to one split over none): it crashed
//   (`[[0, 1]]` to `[[]]`, status 139), or made the first step alone and
//   returned a tensor of the wrong shape (`[[0], [1]]` to `[[]]` gathered
//   one axis, `[[0, 1]]` to `[[0], [1]]` returned the slice of
//   `[[0, 1], [1]]`), and pld-run ran that, its calls all "ok".
// pld-run runs a function that only reshards its arguments with
// convert-shard-to-pld alone (one all_to_all_v per reshard).
//
// RUN: rm -rf %t && split-file %s %t
// RUN: not pld-opt %t/undivided.mlir --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition))' 2>&1 | FileCheck %s --check-prefix=UNDIVIDED
// UNDIVIDED: undivided.mlir:5:8: error: 'shard.shard' op splits axis 0 (7 elements) evenly over 2 devices, which does not divide it; upstream shard-partition (LLVM 22) builds invalid IR for it: give the sharding sharded_dims_offsets (and leave shard-partition out: convert-shard-to-pld reshards an unevenly sharded function argument itself)
// UNDIVIDED-NOT: tensor.cast
// RUN: not pld-run %t/undivided.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=UNDIVIDED
//
// RUN: not pld-opt %t/two-axes.mlir --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition))' 2>&1 | FileCheck %s --check-prefix=TWO-AXES
// TWO-AXES: two-axes.mlir:6:8: error: 'shard.shard' op reshards split_axes = {{\[\[0, 1\]\] to \[\[\]\]}} in more than one step, which upstream shard-partition (LLVM 22) does not do
// To replicated, convert-shard-to-pld reshards an argument itself: the
// message says so (and only there: it refuses other grid axes).
// TWO-AXES-SAME: , or, for a function argument, leave shard-partition out: convert-shard-to-pld reshards it itself
// RUN: pld-run %t/two-axes.mlir --ranks 4 --check | FileCheck %s --check-prefix=TWO-AXES-SIM
// TWO-AXES-SIM: @f on 4 devices: 1 collective call
// TWO-AXES-SIM-NEXT: pld.tensor_all_to_all_v at {{.*}}two-axes.mlir:5:8: f32 x 32, {{.*}}: ok on 4 ranks
//
// RUN: not pld-opt %t/first-step.mlir --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition))' 2>&1 | FileCheck %s --check-prefix=FIRST
// FIRST: first-step.mlir:6:8: error: 'shard.shard' op reshards split_axes = {{\[\[0, 1\]\] to \[\[0\], \[1\]\]}} in more than one step
// FIRST-NOT: leave shard-partition out
// RUN: not pld-opt %t/moved.mlir --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition))' 2>&1 | FileCheck %s --check-prefix=MOVED
// MOVED: moved.mlir:6:8: error: 'shard.shard' op reshards split_axes = {{\[\[0\], \[1\]\] to \[\[\]\]}} in more than one step
// MOVED-NOT: leave shard-partition out
//
// One step each is partitioned as before:
// RUN: pld-opt %t/one-step.mlir --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition))' | FileCheck %s --check-prefix=ONE
// ONE: shard.all_gather {{.*}} grid_axes = [1] gather_axis = 0 : tensor<2x4xf32> -> tensor<4x4xf32>
// ONE: shard.all_to_all {{.*}} grid_axes = [0] split_axis = 0 concat_axis = 1 : tensor<8x4xf32> -> tensor<4x8xf32>

//--- undivided.mlir
shard.grid @grid(shape = 2)
func.func @rows(%x: tensor<7x4xf32>) -> tensor<7x4xf32> {
  %by_rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %whole = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a = shard.shard %x to %by_rows : tensor<7x4xf32>
  %b = shard.shard %a to %whole annotate_for_users : tensor<7x4xf32>
  return %b : tensor<7x4xf32>
}

//--- two-axes.mlir
shard.grid @grid(shape = 2x2)
func.func @f(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @grid split_axes = [[0, 1]] : !shard.sharding
  %w = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a = shard.shard %x to %s : tensor<8x4xf32>
  %b = shard.shard %a to %w annotate_for_users : tensor<8x4xf32>
  return %b : tensor<8x4xf32>
}

//--- first-step.mlir
shard.grid @grid(shape = 2x2)
func.func @f(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @grid split_axes = [[0, 1]] : !shard.sharding
  %w = shard.sharding @grid split_axes = [[0], [1]] : !shard.sharding
  %a = shard.shard %x to %s : tensor<8x4xf32>
  %b = shard.shard %a to %w annotate_for_users : tensor<8x4xf32>
  return %b : tensor<8x4xf32>
}

//--- moved.mlir
shard.grid @grid(shape = 2x2)
func.func @f(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @grid split_axes = [[0], [1]] : !shard.sharding
  %w = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a = shard.shard %x to %s : tensor<8x4xf32>
  %b = shard.shard %a to %w annotate_for_users : tensor<8x4xf32>
  return %b : tensor<8x4xf32>
}

//--- one-step.mlir
shard.grid @grid(shape = 2x2)
func.func @gather(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @grid split_axes = [[0, 1]] : !shard.sharding
  %w = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %a = shard.shard %x to %s : tensor<8x4xf32>
  %b = shard.shard %a to %w annotate_for_users : tensor<8x4xf32>
  return %b : tensor<8x4xf32>
}
func.func @move(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %w = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %a = shard.shard %x to %s : tensor<8x8xf32>
  %b = shard.shard %a to %w annotate_for_users : tensor<8x8xf32>
  return %b : tensor<8x8xf32>
}
