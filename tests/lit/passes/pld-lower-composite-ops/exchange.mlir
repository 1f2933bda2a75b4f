// pld-lower-composite-ops: the other composite rules of spec 7.1.4.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-lower-composite-ops)' | FileCheck %s

!rows = tensor<4x16xf32, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>

// broadcast: a ready barrier, then a get of root's target into ours
// through a staging tile; one credit. Root 2 needs 3 ranks or more, which
// the function keeps as pld.ranks_at_least (pld-explore-protocol reads it);
// a kernel without a root gets none.
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: pld.ranks_at_least = 3 : i64
// CHECK: "pld.system_wait"(%arg1, %{{.*}}, %c0, %c1_i32)
// CHECK: %[[STAGE:.*]] = "pld.tile_create"() : () -> tensor<4x16xf32, #pld.tile>
// CHECK-NEXT: %[[ROOT:.*]] = arith.constant 2 : i32
// CHECK-NEXT: "pld.tile_get"(%arg0, %[[ROOT]], %arg0, %[[STAGE]])
// CHECK: %[[NEG:.*]] = arith.constant -1 : i32
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %{{.*}}, %c0, %[[NEG]])
// CHECK-NOT: pld.tensor_broadcast
func.func @broadcast(%t: !rows, %s: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_broadcast"(%t, %s) {root = 2 : i64} : (!rows, !sig) -> !rows
  return
}

// reduce_scatter: ready barrier; row `me` summed over every peer; a second
// barrier before the store (write-after-read); two credits.
// CHECK-LABEL: func.func @reduce_scatter
// CHECK-NOT: pld.ranks_at_least
// CHECK: %[[ME32:.*]] = "pld.system_rank"
// CHECK-NEXT: %[[ME:.*]] = arith.index_cast %[[ME32]]
// CHECK: "pld.system_wait"(%arg1, %{{.*}}, %c0, %c1_i32)
// CHECK: %[[MINE:.*]] = "pld.tile_load"(%arg0, %[[ME]], %c0) {{.*}} -> tensor<1x16xf32, #pld.tile>
// CHECK: scf.for %[[P:.*]] = %c0 to %{{.*}} step %c1 iter_args(%[[ACC:.*]] = %[[MINE]])
// CHECK: "pld.tile_remote_load"(%arg0, %[[P]], %[[ME]], %c0)
// CHECK: "pld.tile_add"(%[[ACC]],
// CHECK: %[[TWO:.*]] = arith.constant 2 : i32
// CHECK: "pld.system_wait"(%arg1, %{{.*}}, %c0, %[[TWO]])
// CHECK: "pld.tile_store"(%{{.*}}, %arg0, %[[ME]], %c0)
// CHECK: %[[NEG:.*]] = arith.constant -2 : i32
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %{{.*}}, %c0, %[[NEG]])
func.func @reduce_scatter(%t: !rows, %s: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_reduce_scatter"(%t, %s) {op = #pld.reduce_op<"sum">} : (!rows, !sig) -> !rows
  return
}

// allgather: our row goes into row `me` of every rank's target (ourselves
// included), then one barrier.
// CHECK-LABEL: func.func @allgather
// CHECK: %[[ME32:.*]] = "pld.system_rank"
// CHECK-NEXT: %[[ME:.*]] = arith.index_cast %[[ME32]]
// CHECK: %[[STAGE:.*]] = "pld.tile_create"() : () -> tensor<1x16xf32, #pld.tile>
// CHECK: %[[W:.*]] = arith.constant 16 : index
// CHECK: scf.for %[[P:.*]] = %c0 to %{{.*}} step %c1 {
// CHECK-NEXT: "pld.tile_put"(%arg1, %[[P]], %arg0, %[[STAGE]], %[[ME]], %c0, %c0, %c0, %c1, %[[W]]) {atomic = #pld.atomic_type<"none">, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 2, 2, 2>}
// CHECK: "pld.system_wait"(%arg2, %{{.*}}, %c0, %c1_i32)
func.func @allgather(%i: tensor<1x16xf32>, %t: !rows, %s: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allgather"(%i, %t, %s) : (tensor<1x16xf32>, !rows, !sig) -> !rows
  return
}

// all_to_all: input row `dest` into row `me` of rank dest's target.
// CHECK-LABEL: func.func @all_to_all
// CHECK: %[[ME32:.*]] = "pld.system_rank"
// CHECK-NEXT: %[[ME:.*]] = arith.index_cast %[[ME32]]
// CHECK: scf.for %[[D:.*]] = %c0 to %{{.*}} step %c1 {
// CHECK-NEXT: "pld.tile_put"(%arg1, %[[D]], %arg0, %{{.*}}, %[[ME]], %c0, %[[D]], %c0, %c1, %{{.*}})
// CHECK: "pld.system_wait"(%arg2
func.func @all_to_all(%i: tensor<4x16xf32>, %t: !rows, %s: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_all_to_all"(%i, %t, %s) : (tensor<4x16xf32>, !rows, !sig) -> !rows
  return
}

// all_to_all_v: MAX_RECV = 8 / 4 = 2 rows per sender. For each destination
// d: rows = clamp(send_counts[d], 0, MAX), always published to d's
// recv_counts[me] with Set, and a put of exactly `rows` rows when rows > 0.
// CHECK-LABEL: func.func @all_to_all_v
// CHECK: %[[ME32:.*]] = "pld.system_rank"
// CHECK-NEXT: %[[ME:.*]] = arith.index_cast %[[ME32]]
// CHECK: %[[STAGE:.*]] = "pld.tile_create"() : () -> tensor<2x16xf32, #pld.tile>
// CHECK-NEXT: %[[MAX:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[W:.*]] = arith.constant 16 : index
// CHECK-NEXT: %[[FIRST:.*]] = arith.muli %[[ME]], %[[MAX]] : index
// CHECK-NEXT: scf.for %[[D:.*]] = %c0 to %{{.*}} step %c1 {
// CHECK-NEXT: %[[CNT:.*]] = "pld.tensor_read"(%arg3, %[[D]]) : (tensor<4xi32>, index) -> i32
// CHECK-NEXT: %[[CI:.*]] = arith.index_cast %[[CNT]] : i32 to index
// CHECK-NEXT: %[[LOW:.*]] = arith.minsi %[[CI]], %[[MAX]] : index
// CHECK-NEXT: %[[ROWS:.*]] = arith.maxsi %[[LOW]], %c0 : index
// CHECK-NEXT: %[[PUB:.*]] = arith.index_cast %[[ROWS]] : index to i32
// CHECK-NEXT: "pld.system_notify"(%arg4, %[[D]], %[[ME]], %c0, %[[PUB]]) {op = #pld.notify_op<"set">}
// CHECK-NEXT: %[[ANY:.*]] = arith.cmpi slt, %c0, %[[ROWS]] : index
// CHECK-NEXT: scf.if %[[ANY]] {
// CHECK-NEXT: %[[SRC:.*]] = arith.muli %[[D]], %[[MAX]] : index
// CHECK-NEXT: "pld.tile_put"(%arg1, %[[D]], %arg0, %[[STAGE]], %[[FIRST]], %c0, %[[SRC]], %c0, %[[ROWS]], %[[W]])
// CHECK: "pld.system_wait"(%arg2, %{{.*}}, %c0, %c1_i32)
// CHECK: %[[NEG:.*]] = arith.constant -1 : i32
// CHECK: "pld.system_notify"(%arg2, %{{.*}}, %{{.*}}, %c0, %[[NEG]])
func.func @all_to_all_v(%i: tensor<8x16xf32>, %t: tensor<8x16xf32, #pld.dist>, %s: !sig, %c: tensor<4xi32>, %rc: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %rc) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, !sig, tensor<4xi32>, tensor<4x1xi32, #pld.dist>) -> tensor<8x16xf32, #pld.dist>
  return
}

// [NR, 1] send counts are read at [d, 0].
// CHECK-LABEL: func.func @counts_2d
// CHECK: "pld.tensor_read"(%arg3, %{{.*}}, %c0) : (tensor<4x1xi32>, index, index) -> i32
func.func @counts_2d(%i: tensor<8x16xf32>, %t: tensor<8x16xf32, #pld.dist>, %s: !sig, %c: tensor<4x1xi32>, %rc: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %rc) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, !sig, tensor<4x1xi32>, tensor<4x1xi32, #pld.dist>) -> tensor<8x16xf32, #pld.dist>
  return
}
