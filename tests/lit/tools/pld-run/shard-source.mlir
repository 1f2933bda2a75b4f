// A shard program runs as the pld program convert-shard-to-pld makes of
// it, whose ops keep the shard ops' locations: what pld-run says about it
// points into the user's file and quotes the user's lines (it used to
// quote the line of the converted text with that number, the printed
// location aliases). Its refusals are the pass's, at the op: a tensor
// without elements is one error at the shard op (it used to be six pld
// verifier errors at window buffers).
//
// RUN: split-file --leading-lines %s %t
// RUN: not pld-run %t/big.mlir --ranks 64 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not pld-run %t/zero.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=ZERO
//
// BIG: {{^}}{{.*}}big.mlir:[[# @LINE + 12]]:1: error: @f on 64 devices (12.0 GiB of window buffers per device, as inputs, windows) needs 1536.0 GiB of memory; the machine has {{.*}} available
// BIG-NEXT: {{^}}func.func @f(%x: tensor<1073741824xf32>) -> tensor<1073741824xf32> {
// BIG-NEXT: {{^}}^
// ZERO: {{^}}{{.*}}zero.mlir:[[# @LINE + 17]]:8: error: 'shard.all_reduce' op works on tensor<0x4xf32>, which has no elements; convert-shard-to-pld needs tensors of at least one element (a pld window buffer is never empty)
// ZERO-NEXT: {{^}}  %r = shard.all_reduce %x on @g grid_axes = [0] : tensor<0x4xf32> -> tensor<0x4xf32>
// ZERO-NEXT: {{^}}       ^
// ZERO-NOT: error

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
