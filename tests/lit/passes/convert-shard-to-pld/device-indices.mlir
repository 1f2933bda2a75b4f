// The device's place in the grid: shard.process_linear_index,
// shard.process_multi_index and shard.grid_shape are integers of each
// device, known at compile time; what uses them (here the offsets of
// tensor.extract_slice) computes them in the kernel from the device index,
// the rank of the world's CommContext. shard.all_slice keeps the chunk of
// the device's key, without communication; tensor.cast is the value itself.
// Checked as IR, then run on 8 simulated devices against the shard
// semantics.
//
// RUN: split-file --leading-lines %s %t
// RUN: pld-opt %t/indices.mlir --pass-pipeline='builtin.module(convert-shard-to-pld)' | FileCheck %s
// RUN: python3 %S/../../../shard/shard_golden.py %t/indices.mlir --ranks 8 --work %t/run | FileCheck %s --check-prefix=GOLD

// CHECK-LABEL: func.func @indices() attributes {pld.kind = #pld.func_kind<"host">}
// No communication: every step is a kernel dispatch.
// CHECK-NOT: "pld.tensor_{{(allreduce|allgather|all_to_all|reduce_scatter|broadcast)}}"
// CHECK: return

// Rows [2d, 2d+2) of the [16, 4] argument, whole rows: the run of
// elements [8d, 8d+8) of the argument seen as [1, 64].
// CHECK-LABEL: func.func @indices__slice0(%arg0: tensor<16x4xf32, #pld.dist>, %arg1: tensor<2x4xf32, #pld.dist>)
// CHECK: %[[WHOLE:.*]] = "pld.tensor_view"(%arg0) {{.*}} -> tensor<1x64xf32, #pld.dist>
// CHECK: %[[CTX:.*]] = "pld.system_get_comm_ctx"(%arg0)
// CHECK-NEXT: %[[RANK:.*]] = "pld.system_rank"(%[[CTX]]) : (!pld.ctx) -> i32
// CHECK-NEXT: %[[DEVICE:.*]] = arith.index_cast %[[RANK]] : i32 to index
// CHECK-NEXT: %[[START:.*]] = arith.muli %[[DEVICE]], %c8 : index
// CHECK: "pld.tile_load"(%[[WHOLE]], %c0, %[[START]])

// Columns [c1 * 3 - c0 + 1, +2) for the device at (c0, c1): not a
// multiple of the device index or of one coordinate, so the offsets are a
// table of the devices.
// CHECK-LABEL: func.func @indices__slice1(
// CHECK: arith.cmpi eq
// CHECK: arith.select

// all_slice over grid axis 0 keeps rows [8 * (d / 4), +8).
// CHECK-LABEL: func.func @indices__all_slice0(
// CHECK: %[[DEVICE:.*]] = arith.index_cast
// CHECK-NEXT: %[[KEY:.*]] = arith.divui %[[DEVICE]], %c4 : index
// CHECK-NEXT: %[[COL:.*]] = arith.muli %[[KEY]], %c32 : index
// CHECK: "pld.tile_load"(%{{.*}}, %c0, %[[COL]])

// GOLD: @indices on 8 devices: 0 collective calls
// GOLD: golden: result0 ok on 8 devices (8 elements each)
// GOLD: golden: result1 ok on 8 devices (32 elements each)
// GOLD: golden: result2 ok on 8 devices (32 elements each)
// GOLD: golden: result3 ok on 8 devices (64 elements each)
// GOLD-NOT: WRONG

//--- indices.mlir
shard.grid @grid(shape = 2x4)

func.func @indices(%x: tensor<16x4xf32>, %y: tensor<16x16xf32>) -> (tensor<2x4xf32>, tensor<16x2xf32>, tensor<8x4xf32>, tensor<16x4xf32>) {
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %linear = shard.process_linear_index on @grid : index
  %row = arith.muli %linear, %c2 : index
  %rows = tensor.extract_slice %x[%row, 0] [2, 4] [1, 1] : tensor<16x4xf32> to tensor<2x4xf32>
  %coords:2 = shard.process_multi_index on @grid axes = [0, 1] : index, index
  %sizes:2 = shard.grid_shape @grid axes = [0, 1] : index, index
  %last = arith.subi %sizes#1, %c1 : index
  %scaled = arith.muli %coords#1, %last : index
  %reversed = arith.subi %scaled, %coords#0 : index
  %shifted = arith.addi %reversed, %c1 : index
  %columns = tensor.extract_slice %y[0, %shifted] [16, 2] [1, 1] : tensor<16x16xf32> to tensor<16x2xf32>
  %half = shard.all_slice %x on @grid grid_axes = [0] slice_axis = 0 : tensor<16x4xf32> -> tensor<8x4xf32>
  %same = tensor.cast %x : tensor<16x4xf32> to tensor<16x4xf32>
  return %rows, %columns, %half, %same : tensor<2x4xf32>, tensor<16x2xf32>, tensor<8x4xf32>, tensor<16x4xf32>
}
