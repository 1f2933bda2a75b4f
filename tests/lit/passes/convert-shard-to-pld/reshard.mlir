// Uneven resharding, the case upstream cannot lower: a function argument
// split with sharded_dims_offsets, used with another split of that axis
// or replicated (a pair of shard.shard ops, the second annotate_for_users),
// becomes one pld.tensor_all_to_all_v per group. Device s sends device d
// the rows of its shard that d's new shard covers; the counts come from
// the offsets, one kernel per device writing its own. Each device holds
// its shard in a buffer as long as the longest shard.
//
// RUN: split-file --leading-lines %s %t
// RUN: pld-opt %t/rows.mlir --pass-pipeline='builtin.module(convert-shard-to-pld)' | FileCheck %s
// RUN: python3 %S/../../../shard/shard_golden.py %t/rows.mlir --ranks 4 --work %t/rows --check | FileCheck %s --check-prefix=ROWS
// RUN: python3 %S/../../../shard/shard_golden.py %t/columns.mlir --ranks 8 --work %t/columns --check | FileCheck %s --check-prefix=COLUMNS
// RUN: python3 %S/../../../shard/shard_golden.py %t/bytes.mlir --ranks 4 --work %t/bytes --check | FileCheck %s --check-prefix=BYTES

// Shards of 2, 3, 4 and 5 rows of 16, to replicated: each device sends its
// whole shard to every device; a slot holds the longest, 5 rows.
// CHECK-LABEL: func.func @rows() attributes {pld.kind = #pld.func_kind<"host">}
// CHECK: {name = "arg0"}
// CHECK-NEXT: -> tensor<5x16xf32, #pld.dist>
// CHECK: {name = "reshard0_send"}
// CHECK-NEXT: -> tensor<20x16xf32, #pld.dist>
// CHECK: {name = "reshard0_signal"}
// CHECK-NEXT: -> tensor<4x1xi32, #pld.dist>
// CHECK: {name = "reshard0_send_counts"}
// CHECK-NEXT: -> tensor<4xi32, #pld.dist>
// CHECK: {name = "reshard0_recv_counts"}
// CHECK-NEXT: -> tensor<4x1xi32, #pld.dist>
// CHECK: {name = "result0"}
// CHECK-NEXT: -> tensor<14x16xf32, #pld.dist>
// Every device runs its own packing kernel.
// CHECK: "pld.dispatch"(%c2) ({
// CHECK-NEXT: func.call @rows__reshard0_pack_d2_chip(
// CHECK: "pld.tensor_all_to_all_v"({{.*}}) : (tensor<20x16xf32, #pld.dist>, tensor<20x16xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>, tensor<4xi32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<20x16xf32, #pld.dist>
// [0, 2, 5, 9, 14] to [0, 5, 7, 8, 14]: device 3 keeps 5 rows of its own,
// the largest part sent, so slots hold 5 rows again.
// CHECK: "pld.tensor_all_to_all_v"({{.*}}) : (tensor<20x16xf32, #pld.dist>,
// Even shards of 4 rows to [0, 10, 10, 11, 16]: slots of 4 rows of 8.
// CHECK: "pld.tensor_all_to_all_v"({{.*}}) : (tensor<16x8xf32, #pld.dist>,

// Device 2 holds rows [5, 9): all 4 go to every device (slot d at row 5d),
// and it says so in its counts.
// CHECK-LABEL: func.func @rows__reshard0_pack_d2(%arg0: tensor<5x16xf32, #pld.dist>, %arg1: tensor<20x16xf32, #pld.dist>, %arg2: tensor<4xi32, #pld.dist>)
// CHECK: "pld.tile_load"(%arg0, %c0, %c0) {{.*}} -> tensor<4x16xf32, #pld.tile>
// CHECK: "pld.tile_store"(%{{.*}}, %arg1, %c0, %c0)
// CHECK: "pld.tile_store"(%{{.*}}, %arg1, %c5, %c0)
// CHECK: "pld.tile_store"(%{{.*}}, %arg1, %c10, %c0)
// CHECK: "pld.tile_store"(%{{.*}}, %arg1, %c15, %c0)
// CHECK: %[[CTX:.*]] = "pld.system_get_comm_ctx"(%arg2)
// CHECK-NEXT: %[[ME:.*]] = "pld.system_rank"(%[[CTX]])
// CHECK-NEXT: "pld.system_notify"(%arg2, %[[ME]], %c0, %[[FOUR:.*]]) {op = #pld.notify_op<"set">}
// CHECK-NEXT: "pld.system_notify"(%arg2, %[[ME]], %c1, %[[FOUR]]) {op = #pld.notify_op<"set">}
// Device 3 (rows [9, 14), 5 of them) unpacks what device 2 sent into rows
// [5, 9) of the replicated result.
// CHECK-LABEL: func.func @rows__reshard0_unpack_d3(%arg0: tensor<20x16xf32, #pld.dist>, %arg1: tensor<14x16xf32, #pld.dist>)
// CHECK: "pld.tile_load"(%arg0, %c10, %c0) {{.*}} -> tensor<4x16xf32, #pld.tile>
// CHECK-NEXT: "pld.tile_store"(%{{.*}}, %arg1, %c5, %c0)

// ROWS: @rows on 4 devices: 3 collective calls
// ROWS: pld.tensor_all_to_all_v at {{.*}}rows.mlir:[[# @LINE + 28]]:9: f32 x 320, {{.*}}: ok on 4 ranks
// ROWS: pld.tensor_all_to_all_v at {{.*}}: f32 x 320, {{.*}}: ok on 4 ranks
// ROWS: pld.tensor_all_to_all_v at {{.*}}: f32 x 128, {{.*}}: ok on 4 ranks
// ROWS: golden: result0 ok on 4 devices (224 elements each)
// ROWS: golden: result1 ok on 4 devices
// ROWS: golden: result2 ok on 4 devices
// ROWS-NOT: WRONG

// COLUMNS: @columns on 8 devices: 2 collective calls
// COLUMNS-COUNT-2: pld.tensor_all_to_all_v at {{.*}}: f32 x 672, {{.*}}: ok on 4 ranks
// COLUMNS: golden: result0 ok on 8 devices (448 elements each)
// COLUMNS-NOT: WRONG

// The HOST all_to_all_v builtin moves i8 too.
// BYTES: pld.tensor_all_to_all_v at {{.*}}: i8 x 512, {{.*}}: ok on 4 ranks
// BYTES: golden: result0 ok on 4 devices (320 elements each)
// BYTES-NOT: WRONG

//--- rows.mlir
shard.grid @grid(shape = 4)

// Uneven to replicated, uneven to another uneven split, even to uneven.
func.func @rows(%x: tensor<14x16xf32>, %y: tensor<14x16xf32>, %z: tensor<16x8xf32>) -> (tensor<14x16xf32>, tensor<14x16xf32>, tensor<16x8xf32>) {
  %uneven = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 2, 5, 9, 14] : !shard.sharding
  %other = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 5, 7, 8, 14] : !shard.sharding
  %even = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %skewed = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 10, 10, 11, 16] : !shard.sharding
  %replicated = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %x0 = shard.shard %x to %uneven : tensor<14x16xf32>
  %x1 = shard.shard %x0 to %replicated annotate_for_users : tensor<14x16xf32>
  %y0 = shard.shard %y to %uneven : tensor<14x16xf32>
  %y1 = shard.shard %y0 to %other annotate_for_users : tensor<14x16xf32>
  %z0 = shard.shard %z to %even : tensor<16x8xf32>
  %z1 = shard.shard %z0 to %skewed annotate_for_users : tensor<16x8xf32>
  return %x1, %y1, %z1 : tensor<14x16xf32>, tensor<14x16xf32>, tensor<16x8xf32>
}

//--- columns.mlir
shard.grid @grid(shape = 2x4)

// Columns split unevenly over grid axis 1 (widths 1, 3, 2, 2), replicated
// afterwards: each of the 7 rows sends its piece, 7 messages per peer.
func.func @columns(%x: tensor<7x8x8xf32>) -> tensor<7x8x8xf32> {
  %uneven = shard.sharding @grid split_axes = [[], [1]] sharded_dims_offsets = [0, 1, 4, 6, 8] : !shard.sharding
  %replicated = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a = shard.shard %x to %uneven : tensor<7x8x8xf32>
  %b = shard.shard %a to %replicated annotate_for_users : tensor<7x8x8xf32>
  return %b : tensor<7x8x8xf32>
}

//--- bytes.mlir
shard.grid @grid(shape = 4)

func.func @bytes(%x: tensor<10x32xi8>) -> tensor<10x32xi8> {
  %uneven = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 1, 3, 6, 10] : !shard.sharding
  %replicated = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a = shard.shard %x to %uneven : tensor<10x32xi8>
  %b = shard.shard %a to %replicated annotate_for_users : tensor<10x32xi8>
  return %b : tensor<10x32xi8>
}
