// A program in upstream MLIR's shard dialect, run as a pld program: a grid
// of 2 x 4 devices (say two hosts of four NPUs), each device holding an
// [8, 16] f32 tensor, with collectives over the four devices of its row
// (grid_axes = [1]), and a tensor split unevenly over those four devices
// (2, 3, 4 and 5 rows of 14) made whole on every one of them, which
// upstream MLIR cannot lower. convert-shard-to-pld turns it into a HOST
// orchestrator with one comm domain per row and a kernel for the data
// movement around each collective (docs/passes/convert-shard-to-pld.md).
//
//   pld-run examples/shard.mlir --ranks 8 --check
//   pld-opt examples/shard.mlir --pass-pipeline='builtin.module(shard-to-pto)' | pld-translate --emit=pto

shard.grid @grid(shape = 2x4)

func.func @step(%x: tensor<8x16xf32>, %rows: tensor<14x16xf32>)
    -> (tensor<8x16xf32>, tensor<8x64xf32>, tensor<2x16xf32>, tensor<2x64xf32>, tensor<8x16xf32>, tensor<8x4xf32>, tensor<14x16xf32>) {
  // Sum, gather the columns, reduce and keep a quarter of the rows,
  // exchange row blocks for column blocks, take device 0's tensor: all
  // within each row of the grid.
  %sum = shard.all_reduce %x on @grid grid_axes = [1] reduction = sum : tensor<8x16xf32> -> tensor<8x16xf32>
  %gathered = shard.all_gather %x on @grid grid_axes = [1] gather_axis = 1 : tensor<8x16xf32> -> tensor<8x64xf32>
  %scattered = shard.reduce_scatter %x on @grid grid_axes = [1] scatter_axis = 0 : tensor<8x16xf32> -> tensor<2x16xf32>
  %exchanged = shard.all_to_all %x on @grid grid_axes = [1] split_axis = 0 concat_axis = 1 : tensor<8x16xf32> -> tensor<2x64xf32>
  %first = shard.broadcast %x on @grid grid_axes = [1] root = [0] : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // Each device's own four columns of the sum: its place in the row.
  %place:2 = shard.process_multi_index on @grid axes = [0, 1] : index, index
  %c4 = arith.constant 4 : index
  %column = arith.muli %place#1, %c4 : index
  %mine = tensor.extract_slice %sum[0, %column] [8, 4] [1, 1] : tensor<8x16xf32> to tensor<8x4xf32>
  // Rows split 2, 3, 4, 5 over each row of the grid, wanted whole.
  %uneven = shard.sharding @grid split_axes = [[1]] sharded_dims_offsets = [0, 2, 5, 9, 14] : !shard.sharding
  %whole = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %split = shard.shard %rows to %uneven : tensor<14x16xf32>
  %all_rows = shard.shard %split to %whole annotate_for_users : tensor<14x16xf32>
  return %sum, %gathered, %scattered, %exchanged, %first, %mine, %all_rows
      : tensor<8x16xf32>, tensor<8x64xf32>, tensor<2x16xf32>, tensor<2x64xf32>, tensor<8x16xf32>, tensor<8x4xf32>, tensor<14x16xf32>
}
