// A shard program runs as the pld program convert-shard-to-pld makes of
// it, whose ops keep the shard ops' locations: what pld-run says about it
// points into the user's file and quotes the user's lines (it used to
// quote the line of the converted text with that number, the printed
// location aliases). Its refusals are the pass's, at the op: a tensor
// without elements is one error at the shard op (it used to be six pld
// verifier errors at window buffers); a function without shard ops is
// converted, so its per-device computation is refused where it starts (it
// used to be left as it was: "has no InCore kernel"), and a function that
// only returns its argument runs.
//
// RUN: split-file --leading-lines %s %t
// RUN: not pld-run %t/big.mlir --ranks 64 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not pld-run %t/zero.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not pld-run %t/local.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=LOCAL
// RUN: pld-run %t/forward.mlir --ranks 2 --output-dir %t/out | FileCheck %s --check-prefix=FORWARD
//
// BIG: {{^}}{{.*}}big.mlir:[[# @LINE + 15]]:1: error: @f on 64 devices (12.0 GiB of window buffers per device, as inputs and as read after the run, and a window of 12.0 GiB per device) needs 2304.0 GiB of memory; the machine has {{.*}} available
// BIG-NEXT: {{^}}func.func @f(%x: tensor<1073741824xf32>) -> tensor<1073741824xf32> {
// BIG-NEXT: {{^}}^
// ZERO: {{^}}{{.*}}zero.mlir:[[# @LINE + 20]]:8: error: 'shard.all_reduce' op works on tensor<0x4xf32>, which has no elements; convert-shard-to-pld needs tensors of at least one element (a pld window buffer is never empty)
// ZERO-NEXT: {{^}}  %r = shard.all_reduce %x on @g grid_axes = [0] : tensor<0x4xf32> -> tensor<0x4xf32>
// ZERO-NEXT: {{^}}       ^
// ZERO-NOT: error
// LOCAL: {{^}}{{.*}}local.mlir:[[# @LINE + 23]]:8: error: 'tensor.empty' op is not converted by convert-shard-to-pld
// LOCAL-NEXT: {{^}}  %y = tensor.empty() : tensor<2x16xf32>
// FORWARD: @f on 2 devices: 0 collective calls

//--- big.mlir
// A grid of 64 devices, 4 GiB a tensor.
shard.grid @g(shape = 64)

func.func @f(%x: tensor<1073741824xf32>) -> tensor<1073741824xf32> {
  %r = shard.all_reduce %x on @g grid_axes = [0] : tensor<1073741824xf32> -> tensor<1073741824xf32>
  return %r : tensor<1073741824xf32>
}

//--- zero.mlir
shard.grid @g(shape = 2)
func.func @f(%x: tensor<0x4xf32>) -> tensor<0x4xf32> {
  %r = shard.all_reduce %x on @g grid_axes = [0] : tensor<0x4xf32> -> tensor<0x4xf32>
  return %r : tensor<0x4xf32>
}

//--- local.mlir
shard.grid @grid(shape = 4)
func.func @f(%x: tensor<2x16xf32>) -> tensor<2x16xf32> {
  %y = tensor.empty() : tensor<2x16xf32>
  %z = linalg.add ins(%x, %x : tensor<2x16xf32>, tensor<2x16xf32>) outs(%y : tensor<2x16xf32>) -> tensor<2x16xf32>
  return %z : tensor<2x16xf32>
}

//--- forward.mlir
shard.grid @g(shape = 2)
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- two-grids.mlir
// A module of two grids of different sizes: the rank count is checked
// against the grid of the function --entry names (it ran @quad on 8 ranks
// and @pair on 3 with exit 0, and @quad on 2 failed in pld's words, "lists
// device 2").
// RUN: not pld-run %t/two-grids.mlir --entry quad --ranks 8 2>&1 | FileCheck %s --check-prefix=QUAD8
// RUN: not pld-run %t/two-grids.mlir --entry @pair --ranks 3 2>&1 | FileCheck %s --check-prefix=PAIR3
// RUN: pld-run %t/two-grids.mlir --entry quad --ranks 4 | FileCheck %s --check-prefix=QUAD4
// QUAD8: pld-run: error: {{.*}}two-grids.mlir: @quad runs on a grid of 4 devices; run it on 4 ranks, not 8
// PAIR3: pld-run: error: {{.*}}two-grids.mlir: @pair runs on a grid of 2 devices; run it on 2 ranks, not 3
// QUAD4: @quad on 4 devices: 2 collective calls
shard.grid @pairs(shape = 2)
shard.grid @quads(shape = 2x2)
func.func @pair(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = shard.all_reduce %x on @pairs grid_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @quad(%x: tensor<4xf32>) -> tensor<8xf32> {
  %r = shard.all_gather %x on @quads grid_axes = [1] gather_axis = 0 : tensor<4xf32> -> tensor<8xf32>
  return %r : tensor<8xf32>
}

//--- one-function.mlir
// Two grids, one function: its grid is the one checked, without --entry
// (it ran on 8 ranks with exit 0).
// RUN: not pld-run %t/one-function.mlir --ranks 8 2>&1 | FileCheck %s --check-prefix=ONE8
// ONE8: pld-run: error: {{.*}}one-function.mlir: @quad runs on a grid of 4 devices; run it on 4 ranks, not 8
shard.grid @pairs(shape = 2)
shard.grid @quads(shape = 2x2)
func.func @quad(%x: tensor<4xf32>) -> tensor<8xf32> {
  %r = shard.all_gather %x on @quads grid_axes = [1] gather_axis = 0 : tensor<4xf32> -> tensor<8xf32>
  return %r : tensor<8xf32>
}
