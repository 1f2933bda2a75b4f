// The all_reduce program both shard lowerings take (`pld-bench shard-mpi`):
// a 2x4 grid, each device's [64, 1024] f32 tensor summed over the four
// devices of its row (grid_axes = [1]). The DLTI entry picks the MPI ABI
// for upstream's convert-shard-to-mpi (MPICH: its OpenMPI lowering is
// broken in LLVM 22, bench/README.md); pld ignores it.
module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">} {
  shard.grid @grid(shape = 2x4)

  func.func @all_reduce(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
    %sum = shard.all_reduce %x on @grid grid_axes = [1] reduction = sum : tensor<64x1024xf32> -> tensor<64x1024xf32>
    return %sum : tensor<64x1024xf32>
  }
}
