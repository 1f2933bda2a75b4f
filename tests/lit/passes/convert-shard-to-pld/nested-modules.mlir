// Shard programs are the functions of the outermost module: a nested
// module's function without shard ops is not converted (a helper returning
// its argument became a HOST orchestrator, then was refused as pld code in
// a nested module), and a grid inside a nested module is refused at the
// grid (the message counted it among the outer module's grids).
//
// RUN: split-file %s %t
// RUN: pld-run %t/helper.mlir --ranks 4 --check | FileCheck %s --check-prefix=HELPER
// RUN: not pld-run %t/inner-grid.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=INNER
// RUN: not pld-opt %t/inner-grid.mlir --pass-pipeline='builtin.module(convert-shard-to-pld)' 2>&1 | FileCheck %s --check-prefix=INNER
// HELPER: @top on 4 devices: 1 collective call
// HELPER: pld.tensor_allreduce at {{.*}}helper.mlir:3:8: f32 x 32 (sum, two_shot), {{.*}}: ok on 4 ranks
// INNER: inner-grid.mlir:7:3: error: 'shard.grid' op is inside a nested module; convert-shard-to-pld converts the shard programs of the outermost module only: move the grid and its functions there

//--- helper.mlir
shard.grid @quad(shape = 4)
func.func @top(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = shard.all_reduce %x on @quad grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
module @tools {
  func.func @same(%v: tensor<2xf32>) -> tensor<2xf32> {
    return %v : tensor<2xf32>
  }
}

//--- inner-grid.mlir
shard.grid @quad(shape = 4)
func.func @top(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = shard.all_reduce %x on @quad grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
module @more {
  shard.grid @pair(shape = 2)
  func.func @g(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %r = shard.all_reduce %x on @pair grid_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
    return %r : tensor<4x8xf32>
  }
}
