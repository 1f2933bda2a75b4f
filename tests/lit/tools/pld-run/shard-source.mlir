// A shard program runs as the pld program convert-shard-to-pld makes of
// it, whose ops keep the shard ops' locations: what pld-run says about it
// points into the user's file and quotes the user's lines (it used to
// quote the line of the converted text with that number, the printed
// location aliases).
//
// RUN: split-file --leading-lines %s %t
// RUN: not pld-run %t/big.mlir --ranks 64 2>&1 | FileCheck %s --check-prefix=BIG
//
// BIG: {{^}}{{.*}}big.mlir:[[# @LINE + 8]]:1: error: @f on 64 devices (12.0 GiB of window buffers per device, as inputs, windows) needs 1536.0 GiB of memory; the machine has {{.*}} available
// BIG-NEXT: {{^}}func.func @f(%x: tensor<1073741824xf32>) -> tensor<1073741824xf32> {
// BIG-NEXT: {{^}}^

//--- big.mlir
// A grid of 64 devices, 4 GiB a tensor.
shard.grid @g(shape = 64)

func.func @f(%x: tensor<1073741824xf32>) -> tensor<1073741824xf32> {
  %r = shard.all_reduce %x on @g grid_axes = [0] : tensor<1073741824xf32> -> tensor<1073741824xf32>
  return %r : tensor<1073741824xf32>
}
