// Upstream MLIR's shard dialect in pld's context: pld-opt parses, verifies
// and prints every op convert-shard-to-pld reads (and upstream's verifier
// runs), and the printed module parses again to the same text.
//
// RUN: pld-opt %s | FileCheck %s
// RUN: pld-opt %s | pld-opt | FileCheck %s
// RUN: pld-opt %s --mlir-print-op-generic | pld-opt --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK: shard.grid @grid(shape = 2x4)
// CHECK: shard.grid @dynamic(shape = 4x?)
// CHECK: shard.all_reduce %arg0 on @grid grid_axes = [1] reduction = max : tensor<8x16xf32> -> tensor<8x16xf32>
// CHECK: shard.all_gather %arg0 on @grid grid_axes = [1] gather_axis = 1 : tensor<8x16xf32> -> tensor<8x64xf32>
// CHECK: shard.reduce_scatter %arg0 on @grid grid_axes = [1] scatter_axis = 0 : tensor<8x16xf32> -> tensor<2x16xf32>
// CHECK: shard.all_to_all %arg0 on @grid grid_axes = [1] split_axis = 0 concat_axis = 0 : tensor<8x16xf32> -> tensor<8x16xf32>
// CHECK: shard.broadcast %arg0 on @grid grid_axes = [0] root = [0] : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK: shard.all_slice %arg0 on @grid grid_axes = [1] slice_axis = 0 : tensor<8x16xf32> -> tensor<2x16xf32>
// CHECK: shard.process_linear_index on @grid : index
// CHECK: shard.process_multi_index on @grid axes = [0, 1] : index, index
// CHECK: shard.grid_shape @grid axes = [1] : index
// CHECK: shard.sharding @grid split_axes = {{\[\[}}0]] sharded_dims_offsets = [0, 2, 5, 9, 14] : !shard.sharding
// CHECK: shard.shard %arg1 to %{{.*}} : tensor<14x16xf32>
// CHECK: annotate_for_users : tensor<14x16xf32>
// GENERIC: "shard.all_reduce"(%arg0) <{grid = @grid, grid_axes = array<i16: 1>, reduction = #shard<partial max>}>
// GENERIC: "shard.sharding"() <{grid = @grid, operandSegmentSizes = array<i32: 0, 0>, split_axes = #shard<axisarray{{\[\[}}0]]>, static_halo_sizes = array<i64>, static_sharded_dims_offsets = array<i64: 0, 2, 5, 9, 14>}>

shard.grid @grid(shape = 2x4)
shard.grid @dynamic(shape = 4x?)

func.func @ops(%x: tensor<8x16xf32>, %rows: tensor<14x16xf32>) {
  %a = shard.all_reduce %x on @grid grid_axes = [1] reduction = max : tensor<8x16xf32> -> tensor<8x16xf32>
  %b = shard.all_gather %x on @grid grid_axes = [1] gather_axis = 1 : tensor<8x16xf32> -> tensor<8x64xf32>
  %c = shard.reduce_scatter %x on @grid grid_axes = [1] scatter_axis = 0 : tensor<8x16xf32> -> tensor<2x16xf32>
  %d = shard.all_to_all %x on @grid grid_axes = [1] split_axis = 0 concat_axis = 0 : tensor<8x16xf32> -> tensor<8x16xf32>
  %e = shard.broadcast %x on @grid grid_axes = [0] root = [0] : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %f = shard.all_slice %x on @grid grid_axes = [1] slice_axis = 0 : tensor<8x16xf32> -> tensor<2x16xf32>
  %i = shard.process_linear_index on @grid : index
  %j:2 = shard.process_multi_index on @grid axes = [0, 1] : index, index
  %n = shard.grid_shape @grid axes = [1] : index
  %uneven = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 2, 5, 9, 14] : !shard.sharding
  %s = shard.shard %rows to %uneven : tensor<14x16xf32>
  %t = shard.shard %s to %uneven annotate_for_users : tensor<14x16xf32>
  return
}
