// Shardings upstream's verifier lets through but shard-partition (LLVM 22)
// crashes on or misreads are refused at the op, in the sharding's terms,
// exit status 1: a sharding with halo_sizes (pld-run and pld-opt crashed,
// status 139, with no message, also for halos of 0 and for a halo target),
// split_axes naming a grid axis the grid lacks (it said 'tensor.cast' op
// ... cast incompatible) or more tensor axes than the tensor has (an
// out-of-bounds gather, or an all_gather of a 0-d tensor).
//
// RUN: split-file %s %t
// RUN: not pld-run %t/halo.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=HALO
// RUN: not pld-opt %t/halo.mlir --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition),shard-to-pto)' 2>&1 | FileCheck %s --check-prefix=HALO
// RUN: sed 's/halo_sizes = \[2, 1\]/halo_sizes = [0, 0]/' %t/halo.mlir > %t/halo0.mlir
// RUN: not pld-run %t/halo0.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=HALO
// RUN: not pld-run %t/halo-target.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not pld-run %t/grid-axis.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=GRID
// RUN: not pld-run %t/tensor-axis.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=AXIS
// RUN: not pld-opt %t/scalar.mlir --pass-pipeline='builtin.module(func.func(shard-partition))' 2>&1 | FileCheck %s --check-prefix=SCALAR
// pld-run refuses an op of an annotated function that convert-shard-to-pld
// does not convert before upstream's sharding-propagation fails on it in
// its own words ("'arith.addf' op sharding interface is not implemented.",
// twice):
// RUN: not pld-run %t/elementwise.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=ELEMENTWISE
// An op whose tensor result nothing uses is left unannotated by
// sharding-propagation, and shard-partition segfaulted on it (pld-opt 139):
// RUN: not pld-opt %t/unused.mlir --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition),convert-shard-to-pld)' 2>&1 | FileCheck %s --check-prefix=UNUSED

//--- halo.mlir
shard.grid @line(shape = 2)
func.func @f(%x: tensor<6x3xf32>) -> tensor<6x3xf32> {
  %rows = shard.sharding @line split_axes = [[0]] halo_sizes = [2, 1] : !shard.sharding
  %a = shard.shard %x to %rows : tensor<6x3xf32>
  %whole = shard.sharding @line split_axes = [[]] : !shard.sharding
  %b = shard.shard %a to %whole annotate_for_users : tensor<6x3xf32>
  return %b : tensor<6x3xf32>
}
// HALO: halo{{0?}}.mlir:3:11: error: 'shard.sharding' op has halo_sizes, which pld does not take: upstream shard-partition (LLVM 22) crashes on resharding such a tensor, and no pld collective moves halos

//--- halo-target.mlir
shard.grid @line(shape = 2)
func.func @f(%x: tensor<6x3xf32>) -> tensor<6x3xf32> {
  %rows = shard.sharding @line split_axes = [[0]] : !shard.sharding
  %halo = shard.sharding @line split_axes = [[0]] halo_sizes = [1, 1] : !shard.sharding
  %a = shard.shard %x to %rows : tensor<6x3xf32>
  %b = shard.shard %a to %halo annotate_for_users : tensor<6x3xf32>
  return %b : tensor<6x3xf32>
}
// TARGET: halo-target.mlir:4:11: error: 'shard.sharding' op has halo_sizes

//--- grid-axis.mlir
shard.grid @square(shape = 2x2)
func.func @f(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %bad = shard.sharding @square split_axes = [[2]] : !shard.sharding
  %a = shard.shard %x to %bad : tensor<4x4xf32>
  %whole = shard.sharding @square split_axes = [[]] : !shard.sharding
  %b = shard.shard %a to %whole annotate_for_users : tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}
// GRID: grid-axis.mlir:4:8: error: 'shard.shard' op has a sharding that splits over grid axis 2 (split_axes = {{\[\[2\]\]}}), but grid @square has 2 axes; upstream shard-partition (LLVM 22) cannot partition it

//--- tensor-axis.mlir
shard.grid @square(shape = 2x2)
func.func @f(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %bad = shard.sharding @square split_axes = [[], [], [1], []] : !shard.sharding
  %a = shard.shard %x to %bad : tensor<4x4xf32>
  %whole = shard.sharding @square split_axes = [[]] : !shard.sharding
  %b = shard.shard %a to %whole annotate_for_users : tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}
// AXIS: tensor-axis.mlir:4:8: error: 'shard.shard' op has a sharding that splits tensor axis 2 (split_axes = {{\[\[\], \[\], \[1\], \[\]\]}}), but its tensor tensor<4x4xf32> has 2 axes

//--- scalar.mlir
shard.grid @line(shape = 2)
func.func @f(%x: tensor<f32>) -> tensor<f32> {
  %split = shard.sharding @line split_axes = [[0]] : !shard.sharding
  %a = shard.shard %x to %split : tensor<f32>
  %whole = shard.sharding @line split_axes = [[]] : !shard.sharding
  %b = shard.shard %a to %whole annotate_for_users : tensor<f32>
  return %b : tensor<f32>
}
// SCALAR: scalar.mlir:4:8: error: 'shard.shard' op has a sharding that splits tensor axis 0 (split_axes = {{\[\[0\]\]}}), but its tensor tensor<f32> has 0 axes

//--- elementwise.mlir
shard.grid @line(shape = 2)
func.func @f(%x: tensor<6x3xf32>) -> tensor<6x3xf32> {
  %rows = shard.sharding @line split_axes = [[0]] : !shard.sharding
  %a = shard.shard %x to %rows : tensor<6x3xf32>
  %b = shard.shard %a to %rows annotate_for_users : tensor<6x3xf32>
  %y = arith.addf %b, %b : tensor<6x3xf32>
  return %y : tensor<6x3xf32>
}
// ELEMENTWISE: elementwise.mlir:6:8: error: 'arith.addf' op is not converted by convert-shard-to-pld: {{.*}}; other per-device computation belongs in a pld kernel
// ELEMENTWISE-NOT: sharding interface

//--- unused.mlir
shard.grid @line(shape = 2)
func.func @f(%x: tensor<6x3xf32>) -> tensor<6x3xf32> {
  %rows = shard.sharding @line split_axes = [[0]] : !shard.sharding
  %whole = shard.sharding @line split_axes = [[]] : !shard.sharding
  %a = shard.shard %x to %rows : tensor<6x3xf32>
  %b = shard.shard %a to %whole annotate_for_users : tensor<6x3xf32>
  %spare = tensor.empty() : tensor<6x3xf32>
  return %b : tensor<6x3xf32>
}
// UNUSED: unused.mlir:7:12: error: 'tensor.empty' op has a tensor result that nothing uses, which sharding-propagation leaves unannotated, and on which upstream shard-partition (LLVM 22) crashes; remove the op, or use its result
