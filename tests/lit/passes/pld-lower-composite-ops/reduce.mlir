// pld-lower-composite-ops, reduce to a root: the mesh allreduce's schedule in
// which only the root folds in its peers' chunks and stores.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-lower-composite-ops)' | FileCheck %s

!data = tensor<1x16xf32, #pld.dist>
!sig = tensor<2x1xi32, #pld.dist>

// Root 1: the kernel runs on 2 ranks or more.
// CHECK-LABEL: func.func @max_to_one
// CHECK-SAME: pld.ranks_at_least = 2 : i64
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK: %[[ME32:.*]] = "pld.system_rank"
// CHECK-NEXT: %[[ME:.*]] = arith.index_cast %[[ME32]] : i32 to index
// CHECK: %[[ROW:.*]] = "pld.tensor_view"(%arg0)
// The ready barrier is every rank's.
// CHECK: "pld.system_wait"(%arg1, %{{.*}}, %c0, %c1_i32) {cmp = #pld.wait_cmp<"ge">}
// CHECK: scf.for %[[COL:.*]] = %c0 to
// The peer loop runs on the root only: its bound is nranks there, 0 elsewhere.
// CHECK: %[[IS_ROOT:.*]] = arith.cmpi eq, %[[ME]], %c1 : index
// CHECK-NEXT: %[[UPPER:.*]] = arith.select %[[IS_ROOT]], %{{.*}}, %c0 : index
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %[[UPPER]] step %{{.*}} iter_args
// CHECK: "pld.tile_maximum"
// The chunk barrier is every rank's; the store only the root's.
// CHECK: "pld.system_wait"
// CHECK: scf.if %[[IS_ROOT]] {
// CHECK-NEXT: "pld.tile_set_validshape"
// CHECK-NEXT: "pld.tile_store"(%{{.*}}, %[[ROW]], %c0, %[[COL]])
// CHECK: %[[TOTAL:.*]] = arith.constant -2 : i32
// CHECK-NOT: pld.tensor_reduce
func.func @max_to_one(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_reduce"(%data, %sig) {op = #pld.reduce_op<"max">, root = 1 : i64} : (!data, !sig) -> !data
  return
}
