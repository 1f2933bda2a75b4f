// What convert-shard-to-pld cannot map is reported at the op, in the
// shard dialect's words, and the pass fails (pld-opt exits 1).
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(convert-shard-to-pld)' --split-input-file --verify-diagnostics
// RUN: sh -c 'pld-opt %s --pass-pipeline="builtin.module(convert-shard-to-pld)" --split-input-file > /dev/null 2>&1; test $? -eq 1'

// A dynamic grid: a pld program runs on a fixed number of devices.
// expected-error @+1 {{'shard.grid' op has the dynamic shape 4x?; convert-shard-to-pld needs a static grid (the device count of a pld program is fixed)}}
shard.grid @grid(shape = 4x?)
func.func @dynamic_grid(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

shard.grid @grid(shape = 4)
func.func @average(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'shard.all_reduce' op has reduction = average, which no pld collective computes: pld reduces by sum, max, min and product}}
  %r = shard.all_reduce %x on @grid grid_axes = [0] reduction = average : tensor<8xf32> -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

shard.grid @grid(shape = 4)
func.func @bitwise(%x: tensor<8xi32>) -> tensor<8xi32> {
  // expected-error @+1 {{'shard.all_reduce' op has reduction = bitwise_or, which no pld collective computes}}
  %r = shard.all_reduce %x on @grid grid_axes = [0] reduction = bitwise_or : tensor<8xi32> -> tensor<8xi32>
  return %r : tensor<8xi32>
}

// -----

shard.grid @grid(shape = 4)
func.func @generic(%x: tensor<8xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'shard.reduce_scatter' op has reduction = generic, which no pld collective computes}}
  %r = shard.reduce_scatter %x on @grid grid_axes = [0] reduction = generic scatter_axis = 0 : tensor<8xf32> -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// An accumulation type other than the input's.
shard.grid @grid(shape = 4)
func.func @accumulate(%x: tensor<8xf16>) -> tensor<8xf32> {
  // expected-error @+1 {{'shard.all_reduce' op accumulates f16 into f32; pld's collectives reduce in the input's element type, so the result's must be f16 too}}
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8xf16> -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// A reduce_scatter whose axis does not split evenly: upstream's verifier
// reports it (also with a dynamic result dimension), before the pass.
shard.grid @grid(shape = 2x4)
func.func @uneven_scatter(%x: tensor<7x16xf32>) -> tensor<?x16xf32> {
  // expected-error @+1 {{Operand dimension size 7 is not divisible by collective device group size 4 for tensor axis 0.}}
  %r = shard.reduce_scatter %x on @grid grid_axes = [1] scatter_axis = 0 : tensor<7x16xf32> -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

// -----

shard.grid @grid(shape = 4)
func.func @uneven_exchange(%x: tensor<6x4xf32>) -> tensor<?x16xf32> {
  // expected-error @+1 {{'shard.all_to_all' op splits dimension 0 (6 elements) over a group of 4 devices, which does not divide it; pld's all_to_all needs equal chunks}}
  %r = shard.all_to_all %x on @grid grid_axes = [0] split_axis = 0 concat_axis = 1 : tensor<6x4xf32> -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

// -----

// Element types a HOST builtin does not move.
shard.grid @grid(shape = 4)
func.func @gather_f16(%x: tensor<2x8xf16>) -> tensor<8x8xf16> {
  // expected-error @+1 {{'shard.all_gather' op moves f16 elements; it becomes pld.tensor_allgather, whose HOST builtin supports only f32}}
  %r = shard.all_gather %x on @grid grid_axes = [0] gather_axis = 0 : tensor<2x8xf16> -> tensor<8x8xf16>
  return %r : tensor<8x8xf16>
}

// -----

shard.grid @grid(shape = 4)
func.func @sum_i32(%x: tensor<8xi32>) -> tensor<8xi32> {
  // expected-error @+1 {{'shard.all_reduce' op moves i32 elements; it becomes pld.tensor_allreduce, whose HOST builtin supports only f16 or f32}}
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8xi32> -> tensor<8xi32>
  return %r : tensor<8xi32>
}

// -----

shard.grid @grid(shape = 4)
func.func @broadcast_f16(%x: tensor<8xf16>) -> tensor<8xf16> {
  // expected-error @+1 {{'shard.broadcast' op moves f16 elements; it becomes pld.tensor_broadcast, whose HOST builtin supports only f32}}
  %r = shard.broadcast %x on @grid grid_axes = [0] root = [1] : (tensor<8xf16>) -> tensor<8xf16>
  return %r : tensor<8xf16>
}

// -----

shard.grid @grid(shape = 4)
func.func @reshard_f16(%x: tensor<10x4xf16>) -> tensor<10x4xf16> {
  %uneven = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 1, 3, 6, 10] : !shard.sharding
  %replicated = shard.sharding @grid split_axes = [[]] : !shard.sharding
  // expected-error @+1 {{'shard.shard' op moves f16 elements; it becomes pld.tensor_all_to_all_v, whose HOST builtin supports only f32 or i8}}
  %a = shard.shard %x to %uneven : tensor<10x4xf16>
  %b = shard.shard %a to %replicated annotate_for_users : tensor<10x4xf16>
  return %b : tensor<10x4xf16>
}

// -----

shard.grid @grid(shape = 4)
func.func @dynamic_root(%x: tensor<8xf32>, %root: index) -> tensor<8xf32> {
  // expected-error @+1 {{'shard.broadcast' op has a root known only at run time (a function argument, or computed from one); convert-shard-to-pld needs a root it can compute: from constants, device indices and integer arith}}
  %r = shard.broadcast %x on @grid grid_axes = [0] root = [%root] : (tensor<8xf32>, index) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

shard.grid @grid(shape = 2x2)
func.func @root_out_of_range_in_one_group(%x: tensor<8xf32>) -> tensor<8xf32> {
  %coords:2 = shard.process_multi_index on @grid axes = [0, 1] : index, index
  %c2 = arith.constant 2 : index
  %root = arith.muli %coords#1, %c2 : index
  // expected-error @+1 {{'shard.broadcast' op has root index 2 on grid axis 0 of size 2 on devices [1, 3]}}
  %r = shard.broadcast %x on @grid grid_axes = [0] root = [%root] : (tensor<8xf32>, index) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

shard.grid @grid(shape = 4)
func.func @root_per_device(%x: tensor<8xf32>) -> tensor<8xf32> {
  %d = shard.process_linear_index on @grid : index
  // expected-error @+1 {{'shard.broadcast' op has a root whose index 0 differs between devices 0 and 1 of one group (0 and 1); the devices of a group need the same root}}
  %r = shard.broadcast %x on @grid grid_axes = [0] root = [%d] : (tensor<8xf32>, index) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

shard.grid @grid(shape = 4)
// expected-error @+1 {{'func.func' op takes argument #1 of type memref<8xf32>; convert-shard-to-pld converts ranked tensors only}}
func.func @unused_memref(%x: tensor<8xf32>, %m: memref<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}

// -----

shard.grid @grid(shape = 4)
func.func @memref(%x: memref<8xf32>) -> memref<8xf32> {
  // expected-error @+1 {{'shard.all_reduce' op works on memref<8xf32>; convert-shard-to-pld converts ranked tensors only}}
  %r = shard.all_reduce %x on @grid grid_axes = [0] : memref<8xf32> -> memref<8xf32>
  return %r : memref<8xf32>
}

// -----

shard.grid @grid(shape = 4)
func.func @dynamic_shape(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'shard.all_reduce' op works on tensor<?xf32>, which has a dynamic dimension; convert-shard-to-pld needs static shapes}}
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<?xf32> -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// Per-device computation other than device indices, casts and slices.
shard.grid @grid(shape = 4)
func.func @compute(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  // expected-error @+1 {{'arith.addf' op is not converted by convert-shard-to-pld: a shard function may hold the shard collectives, integer arithmetic on device indices (arith.constant of an integer, addi, subi, muli, divsi, divui, remsi, remui, floordivsi, ceildivsi, ceildivui, maxsi, maxui, minsi, minui, shli, shrsi, shrui, andi, ori, xori, cmpi, select, index_cast, index_castui, extsi, extui, trunci), tensor.cast and tensor.extract_slice; other per-device computation belongs in a pld kernel}}
  %s = arith.addf %r, %r : tensor<8xf32>
  return %s : tensor<8xf32>
}

// -----

shard.grid @grid(shape = 4)
func.func @gather_to_root(%x: tensor<2xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'shard.gather' op has no pld lowering}}
  %r = shard.gather %x on @grid grid_axes = [0] gather_axis = 0 root = [0] : (tensor<2xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// A sharding annotation is for shard-partition.
shard.grid @grid(shape = 4)
func.func @annotated(%x: tensor<8xf32>) -> tensor<8xf32> {
  %split = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  // expected-error @+1 {{'shard.shard' op is a sharding annotation; convert-shard-to-pld takes partitioned functions (run shard-partition first)}}
  %a = shard.shard %x to %split : tensor<8xf32>
  %r = shard.all_reduce %a on @grid grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

shard.grid @grid(shape = 4)
func.func @reshard_other_axis(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 1, 3, 6, 8] : !shard.sharding
  %cols = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  // expected-error @+1 {{'shard.shard' op reshards split axis 0 over grid axes [0] into split axis 1 over grid axes [0]; convert-shard-to-pld reshards one axis over the same grid axes, or to replicated: reshard to replicated (split_axes = [[]]) and take each device's part with shard.all_slice (slice_axis = 1, grid_axes = [0]) (shard-partition takes no sharded_dims_offsets)}}
  %a = shard.shard %x to %rows : tensor<8x8xf32>
  %b = shard.shard %a to %cols annotate_for_users : tensor<8x8xf32>
  return %b : tensor<8x8xf32>
}

// -----

// An uneven target over other grid axes: nothing reaches it.
shard.grid @g(shape = 2x2)
func.func @reshard_to_uneven_other_axes(%x: tensor<8x2xf32>) -> tensor<8x2xf32> {
  %s0 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %s1 = shard.sharding @g split_axes = [[1]] sharded_dims_offsets = [0, 3, 8] : !shard.sharding
  // expected-error @+1 {{'shard.shard' op reshards split axis 0 over grid axes [0] into split axis 0 over grid axes [1]; convert-shard-to-pld reshards one axis over the same grid axes, or to replicated: its target is split unevenly (sharded_dims_offsets), which no shard op makes from another split: reshard over the same grid axes}}
  %a = shard.shard %x to %s0 : tensor<8x2xf32>
  %b = shard.shard %a to %s1 annotate_for_users : tensor<8x2xf32>
  return %b : tensor<8x2xf32>
}

// -----

// Other grid axes: the steps through replicated are named.
shard.grid @g(shape = 2x2)
func.func @reshard_other_grid_axes(%x: tensor<8x2xf32>) -> tensor<8x2xf32> {
  %s0 = shard.sharding @g split_axes = [[0, 1]] : !shard.sharding
  %s1 = shard.sharding @g split_axes = [[1]] : !shard.sharding
  // expected-error @+1 {{'shard.shard' op reshards split axis 0 over grid axes [0, 1] into split axis 0 over grid axes [1]; convert-shard-to-pld reshards one axis over the same grid axes, or to replicated: annotate the steps between them, each a grid axis removed from or added to the end of the list, which upstream shard-partition makes (split_axes = [[0, 1]] to [[0]] to [[]] to [[1]]), or reshard to replicated (split_axes = [[]]) and take each device's part with shard.all_slice (slice_axis = 0, grid_axes = [1])}}
  %a = shard.shard %x to %s0 : tensor<8x2xf32>
  %b = shard.shard %a to %s1 annotate_for_users : tensor<8x2xf32>
  return %b : tensor<8x2xf32>
}

// -----

shard.grid @grid(shape = 4)
func.func @bad_offsets(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // Upstream's verifier does not check the last offset against the size.
  %rows = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 1, 3, 6, 9] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  // expected-error @+1 {{'shard.shard' op has sharded_dims_offsets [0, 1, 3, 6, 9]; splitting axis 0 (8 elements) over 4 devices takes 5 non-decreasing offsets from 0 to 8}}
  %a = shard.shard %x to %rows : tensor<8x8xf32>
  %b = shard.shard %a to %all annotate_for_users : tensor<8x8xf32>
  return %b : tensor<8x8xf32>
}

// -----

// The target sharding of a reshard (the second shard.shard's) that does
// not divide the axis: the error is reported at the first op of the pair
// and names the second (it read as if the first's uneven sharding were
// the even one).
shard.grid @g(shape = 4)
func.func @target_undivided(%x: tensor<14x3xf32>) -> tensor<14x3xf32> {
  %s1 = shard.sharding @g split_axes = [[0]] sharded_dims_offsets = [0, 2, 5, 9, 14] : !shard.sharding
  %s2 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  // expected-error-re @+1 {{'shard.shard' op the shard.shard at {{.*}}invalid.mlir:{{[0-9]+}}:8, the target of this reshard, splits axis 0 (14 elements) evenly over 4 devices, which does not divide it}}
  %a = shard.shard %x to %s1 : tensor<14x3xf32>
  %b = shard.shard %a to %s2 annotate_for_users : tensor<14x3xf32>
  return %b : tensor<14x3xf32>
}

// -----

// A target sharding naming a grid axis the grid lacks, or a tensor axis the
// tensor lacks, is said so (each said only that the split axes "do not fit
// the tensor and the grid").
shard.grid @g(shape = 4)
func.func @target_grid_axis(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s1 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %s2 = shard.sharding @g split_axes = [[5]] : !shard.sharding
  // expected-error-re @+1 {{'shard.shard' op the shard.shard at {{.*}}invalid.mlir:{{[0-9]+}}:8, the target of this reshard, has a sharding that splits over grid axis 5 (split_axes = {{\[\[5\]\]}}), but grid @g has 1 axis}}
  %a = shard.shard %x to %s1 : tensor<8x4xf32>
  %b = shard.shard %a to %s2 annotate_for_users : tensor<8x4xf32>
  return %b : tensor<8x4xf32>
}

// -----

shard.grid @g(shape = 4)
func.func @target_tensor_axis(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s1 = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %s2 = shard.sharding @g split_axes = [[], [], [0]] : !shard.sharding
  // expected-error-re @+1 {{'shard.shard' op the shard.shard at {{.*}}invalid.mlir:{{[0-9]+}}:8, the target of this reshard, has a sharding that splits tensor axis 2 (split_axes = {{.*}}), but its tensor has 2 axes}}
  %a = shard.shard %x to %s1 : tensor<8x4xf32>
  %b = shard.shard %a to %s2 annotate_for_users : tensor<8x4xf32>
  return %b : tensor<8x4xf32>
}

// -----

// An argument resharded unevenly and also read by an all_reduce: its
// buffer holds the longest shard (5 rows), and the all_reduce failed on a
// pld.tensor_view element count the user never wrote.
shard.grid @g(shape = 4)
func.func @reused(%rows: tensor<14x16xf32>) -> (tensor<14x16xf32>, tensor<14x16xf32>) {
  %uneven = shard.sharding @g split_axes = [[0]] sharded_dims_offsets = [0, 2, 5, 9, 14] : !shard.sharding
  %whole = shard.sharding @g split_axes = [[]] : !shard.sharding
  // expected-error-re @+1 {{'shard.shard' op reshards argument #0 unevenly (sharded_dims_offsets), which 'shard.all_reduce' at {{.*}}invalid.mlir:{{[0-9]+}}:8 also reads; convert-shard-to-pld converts an unevenly sharded argument only where its reshard is its one use}}
  %a = shard.shard %rows to %uneven : tensor<14x16xf32>
  %b = shard.shard %a to %whole annotate_for_users : tensor<14x16xf32>
  %s = shard.all_reduce %rows on @g grid_axes = [0] : tensor<14x16xf32> -> tensor<14x16xf32>
  return %b, %s : tensor<14x16xf32>, tensor<14x16xf32>
}

// -----

shard.grid @grid(shape = 4)
func.func @shard(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  return %r : tensor<8xf32>
}
func.func @caller(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'func.call' op calls @shard, a shard function that convert-shard-to-pld turns into a HOST orchestrator without arguments or results; inline it into its caller first}}
  %r = func.call @shard(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

shard.grid @grid(shape = 4)
func.func @returns_index(%x: tensor<8xf32>) -> index {
  %i = shard.process_linear_index on @grid : index
  // expected-error @+1 {{'func.return' op returns a per-device integer (result #0); a converted function returns its tensors in window buffers only}}
  return %i : index
}

// -----

shard.grid @rows(shape = 4)
shard.grid @cols(shape = 2)
func.func @two_grids(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = shard.all_reduce %x on @rows grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  // expected-error @+1 {{'shard.all_reduce' op runs on grid @cols, but the function already runs on @rows; a converted function runs on one grid}}
  %s = shard.all_reduce %r on @cols grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  return %s : tensor<8xf32>
}

// -----

shard.grid @grid(shape = 4)
func.func @slice_outside(%x: tensor<8xf32>) -> tensor<4xf32> {
  %i = shard.process_linear_index on @grid : index
  %c2 = arith.constant 2 : index
  %at = arith.muli %i, %c2 : index
  // expected-error @+1 {{'tensor.extract_slice' op slices outside its source on device 3}}
  %s = tensor.extract_slice %x[%at] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %r = shard.all_reduce %s on @grid grid_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A tensor without elements: a pld window buffer is never empty.
shard.grid @g(shape = 2)
func.func @zero(%x: tensor<0x4xf32>) -> tensor<0x4xf32> {
  // expected-error @+1 {{'shard.all_reduce' op works on tensor<0x4xf32>, which has no elements; convert-shard-to-pld needs tensors of at least one element (a pld window buffer is never empty)}}
  %r = shard.all_reduce %x on @g grid_axes = [0] : tensor<0x4xf32> -> tensor<0x4xf32>
  return %r : tensor<0x4xf32>
}

// -----

shard.grid @g(shape = 2)
func.func @empty_slice(%x: tensor<8xf32>) -> tensor<0xf32> {
  %i = shard.process_linear_index on @g : index
  // expected-error @+1 {{'tensor.extract_slice' op works on tensor<0xf32>, which has no elements}}
  %s = tensor.extract_slice %x[%i] [0] [1] : tensor<8xf32> to tensor<0xf32>
  return %s : tensor<0xf32>
}

// -----

// A tensor whose size (or a scratch buffer of 64 of it) overflows a
// window's 64-bit size.
shard.grid @g(shape = 2)
func.func @huge(%x: tensor<4611686018427387904x4xf32>) -> tensor<4611686018427387904x4xf32> {
  // expected-error @+1 {{'shard.all_reduce' op works on tensor<4611686018427387904x4xf32>, which is larger than the 2^56 bytes convert-shard-to-pld converts (a collective's scratch holds up to 64 such tensors, and window sizes are 64-bit integers)}}
  %r = shard.all_reduce %x on @g grid_axes = [0] : tensor<4611686018427387904x4xf32> -> tensor<4611686018427387904x4xf32>
  return %r : tensor<4611686018427387904x4xf32>
}

// -----

shard.grid @g(shape = 2)
func.func @strided(%x: tensor<8xf32>) -> tensor<4xf32> {
  %i = shard.process_linear_index on @g : index
  // expected-error @+1 {{'tensor.extract_slice' op needs static sizes and unit strides}}
  %s = tensor.extract_slice %x[%i] [4] [2] : tensor<8xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// Each run of a slice beyond the last three dimensions left is a box copy
// with a tile of its own: 79 * 2 * 79 of them do not fit an AIV core's UB.
shard.grid @g(shape = 2)
func.func @too_many_runs(%x: tensor<80x3x80x3x3x3xf32>) -> tensor<79x2x79x2x2x2xf32> {
  %i = shard.process_linear_index on @g : index
  // expected-error @+1 {{'tensor.extract_slice' op needs more than the 5120 box copies an AIV core's UB holds tiles for; slice fewer separate runs of elements}}
  %s = tensor.extract_slice %x[%i, 0, 0, 0, 0, 0] [79, 2, 79, 2, 2, 2] [1, 1, 1, 1, 1, 1] : tensor<80x3x80x3x3x3xf32> to tensor<79x2x79x2x2x2xf32>
  return %s : tensor<79x2x79x2x2x2xf32>
}

// -----

// A function of a module with a grid is converted even when it uses no
// shard op (a partitioned function whose values need no communication has
// none), so what it holds outside the table is refused at the op: here the
// linalg ops of a per-device computation, from their first.
shard.grid @grid(shape = 4)
func.func @linalg_only(%x: tensor<2x16xf32>) -> tensor<2x16xf32> {
  // expected-error @+1 {{'tensor.empty' op is not converted by convert-shard-to-pld: a shard function may hold the shard collectives, integer arithmetic on device indices (arith.constant of an integer, addi, subi, muli, divsi, divui, remsi, remui, floordivsi, ceildivsi, ceildivui, maxsi, maxui, minsi, minui, shli, shrsi, shrui, andi, ori, xori, cmpi, select, index_cast, index_castui, extsi, extui, trunci), tensor.cast and tensor.extract_slice; other per-device computation belongs in a pld kernel}}
  %y = tensor.empty() : tensor<2x16xf32>
  %z = linalg.add ins(%x, %x : tensor<2x16xf32>, tensor<2x16xf32>) outs(%y : tensor<2x16xf32>) -> tensor<2x16xf32>
  return %z : tensor<2x16xf32>
}

// -----

shard.grid @grid(shape = 4)
func.func @elementwise_only(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'arith.addf' op is not converted by convert-shard-to-pld}}
  %s = arith.addf %x, %x : tensor<8xf32>
  return %s : tensor<8xf32>
}

// -----

// A function that names no grid, in a module of two: it would run on one.
shard.grid @rows(shape = 4)
shard.grid @cols(shape = 2)
// expected-error @+1 {{'func.func' op names no grid, and the module defines 2 grids (@cols, @rows); a converted function runs on one grid, which one of its shard ops must name}}
func.func @which_grid(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}

// -----

// A call of a function that is not converted (a declaration).
shard.grid @grid(shape = 4)
func.func private @external(tensor<8xf32>) -> tensor<8xf32>
func.func @calls_external(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'func.call' op calls @external; a shard function may hold the shard collectives, integer arithmetic on device indices, tensor.cast and tensor.extract_slice, not calls}}
  %r = func.call @external(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// A pld function (not converted) calling a converted one.
shard.grid @grid(shape = 4)
func.func @shard(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  return %r : tensor<8xf32>
}
func.func @host() attributes {pld.kind = #pld.func_kind<"host">} {
  %x = tensor.empty() : tensor<8xf32>
  // expected-error @+1 {{'func.call' op calls @shard, a shard function that convert-shard-to-pld turns into a HOST orchestrator without arguments or results; inline it into its caller first}}
  %r = func.call @shard(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

// Integer arith with no value on some device: a division by zero (device
// 2), the minimum of i8 divided by -1 (device 0 of the second function),
// a shift by the width.
shard.grid @grid(shape = 4)
func.func @divide_by_zero(%x: tensor<8xf32>) -> tensor<1xf32> {
  %d = shard.process_linear_index on @grid : index
  %c2 = arith.constant 2 : index
  %z = arith.subi %d, %c2 : index
  // expected-error @+1 {{'arith.divsi' op divides by zero on device 2, where it has no value}}
  %q = arith.divsi %c2, %z : index
  %s = tensor.extract_slice %x[%q] [1] [1] : tensor<8xf32> to tensor<1xf32>
  return %s : tensor<1xf32>
}

// -----

shard.grid @grid(shape = 4)
func.func @minimum_by_minus_one(%x: tensor<8xf32>) -> tensor<1xf32> {
  %d = shard.process_linear_index on @grid : index
  %d8 = arith.index_cast %d : index to i8
  %min = arith.constant -128 : i8
  %m = arith.subi %d8, %min : i8
  %c1 = arith.constant -1 : i8
  // expected-error @+1 {{'arith.floordivsi' op divides the type's minimum by -1 on device 0, where it has no value}}
  %q = arith.floordivsi %m, %c1 : i8
  %i = arith.index_cast %q : i8 to index
  %s = tensor.extract_slice %x[%i] [1] [1] : tensor<8xf32> to tensor<1xf32>
  return %s : tensor<1xf32>
}

// -----

shard.grid @grid(shape = 4)
func.func @shift_by_width(%x: tensor<8xf32>) -> tensor<1xf32> {
  %d = shard.process_linear_index on @grid : index
  %d32 = arith.index_cast %d : index to i32
  %c29 = arith.constant 29 : i32
  %n = arith.addi %d32, %c29 : i32
  // expected-error @+1 {{'arith.shrui' op shifts by the width or more on device 3, where it has no value}}
  %q = arith.shrui %d32, %n : i32
  %i = arith.index_cast %q : i32 to index
  %s = tensor.extract_slice %x[%i] [1] [1] : tensor<8xf32> to tensor<1xf32>
  return %s : tensor<1xf32>
}

// -----

// Integers wider than 64 bits: device indices fit 64.
shard.grid @grid(shape = 4)
func.func @wide(%x: tensor<8xf32>) -> tensor<1xf32> {
  %d = shard.process_linear_index on @grid : index
  // expected-error @+1 {{'arith.index_cast' op works on integers wider than 64 bits; device indices fit 64}}
  %w = arith.index_cast %d : index to i128
  %i = arith.index_cast %w : i128 to index
  %s = tensor.extract_slice %x[%i] [1] [1] : tensor<8xf32> to tensor<1xf32>
  return %s : tensor<1xf32>
}

// -----

// An integer reduce_scatter: neither route moves it, and the message names
// both (it said the reduce_scatter builtin's f32 only, though an f16 one
// runs as an allreduce: shard25 LOW-3).
shard.grid @grid(shape = 4)
func.func @scatter_i32(%x: tensor<8xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{'shard.reduce_scatter' op moves i32 elements; it becomes pld.tensor_reduce_scatter, whose HOST builtin supports only f32, summing only, or else a pld.tensor_allreduce of which each device keeps its chunk, whose HOST builtin supports only f16 or f32}}
  %r = shard.reduce_scatter %x on @grid grid_axes = [0] scatter_axis = 0 : tensor<8xi32> -> tensor<2xi32>
  return %r : tensor<2xi32>
}

// -----

// A tensor split along two axes: said with its split_axes and what pld
// reshards (the message had neither: shard25 LOW-1).
shard.grid @grid(shape = 2x4)
func.func @two_axes(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s1 = shard.sharding @grid split_axes = [[1], [0]] : !shard.sharding
  %s2 = shard.sharding @grid split_axes = [[]] : !shard.sharding
  // expected-error @+1 {{'shard.shard' op has a sharding that splits more than one tensor axis (split_axes = [[1], [0]]), which pld does not reshard: it reshards a tensor split along one axis (whose list may name several grid axes, [[0, 1]])}}
  %a = shard.shard %x to %s1 : tensor<8x16xf32>
  %b = shard.shard %a to %s2 annotate_for_users : tensor<8x16xf32>
  return %b : tensor<8x16xf32>
}

// -----

// Halos, in the words pld-run uses for them (shard25 LOW-2).
shard.grid @grid(shape = 4)
func.func @halo(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s1 = shard.sharding @grid split_axes = [[0]] halo_sizes = [1, 1] : !shard.sharding
  %s2 = shard.sharding @grid split_axes = [[]] : !shard.sharding
  // expected-error @+1 {{'shard.shard' op has a sharding with halo_sizes, which pld does not take: no pld collective moves halos}}
  %a = shard.shard %x to %s1 : tensor<8x4xf32>
  %b = shard.shard %a to %s2 annotate_for_users : tensor<8x4xf32>
  return %b : tensor<8x4xf32>
}
