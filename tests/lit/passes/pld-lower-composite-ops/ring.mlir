// pld-lower-composite-ops, ring allreduce: the shape of the lowering.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-lower-composite-ops)' | FileCheck %s
// Spec 7.1.3, P = 2 with one subchunk: 14 loops and 13 ifs, no tile_create.
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-lower-composite-ops)' | sed -n '/func.func @sum/,/^  }/p' | grep -c 'scf.for' | FileCheck %s --check-prefix=FORS
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-lower-composite-ops)' | sed -n '/func.func @sum/,/^  }/p' | grep -c 'scf.if' | FileCheck %s --check-prefix=IFS
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-lower-composite-ops)' | not grep tile_create
// FORS: 14
// IFS: 13

!data = tensor<1x16xf32, #pld.dist>
!sig = tensor<2x2xi32, #pld.dist>

// CHECK-LABEL: func.func @sum
// CHECK: %[[NR32:.*]] = "pld.system_nranks"
// CHECK-NEXT: %[[NR:.*]] = arith.index_cast %[[NR32]]
// CHECK-NEXT: %[[ME32:.*]] = "pld.system_rank"
// CHECK-NEXT: %[[ME:.*]] = arith.index_cast %[[ME32]]
// The left neighbour: (me + NR - 1) mod NR.
// CHECK: %[[LAST:.*]] = arith.subi %[[NR]], %c1 : index
// CHECK-NEXT: %[[SHIFT:.*]] = arith.addi %[[ME]], %[[LAST]] : index
// CHECK-NEXT: %[[LEFT:.*]] = arith.remui %[[SHIFT]], %[[NR]] : index
// Phase 1, reduce-scatter: NR - 1 steps on signal rows 0..NR-2.
// CHECK: scf.for %[[RS:.*]] = %c0 to %{{.*}} step %c1 {
// CHECK: %[[ROW:.*]] = arith.addi %[[RS]], %c0 : index
// Every rank walks max_seg / C subchunks; a subchunk is active inside the
// segment.
// CHECK: scf.for %[[SUB:.*]] = %c0 to %{{.*}} step %{{.*}} {
// CHECK-NEXT: %[[ACTIVE:.*]] = arith.cmpi slt, %[[SUB]], %{{.*}} : index
// Ready barrier on the step's row: cells [row, rank].
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %[[ROW]], %[[ME]], %{{.*}})
// CHECK: "pld.system_wait"(%arg1, %[[ROW]], %{{.*}}, %{{.*}})
// Active: pull the left neighbour's chunk and add the local one.
// CHECK: scf.if %[[ACTIVE]] -> (tensor<1x8xf32, #pld.tile>) {
// CHECK-NEXT: "pld.tile_remote_load"(%{{.*}}, %[[LEFT]],
// CHECK: "pld.tile_add"
// Inactive: a one-element local placeholder of the same type.
// CHECK: } else {
// CHECK-NEXT: "pld.tile_load"(%{{.*}}, %c0, %c0, %c1, %{{.*}})
// Read-complete barrier, then the clamped store.
// CHECK: "pld.system_wait"
// CHECK: scf.if %[[ACTIVE]] {
// CHECK: "pld.tile_store"
// Phase 2, all-gather on rows NR-1..2NR-3: a pull without reduction.
// CHECK: scf.for %[[AG:.*]] = %c0 to %{{.*}} step %c1 {
// CHECK: %[[ROW2:.*]] = arith.addi %[[AG]], %[[LAST]] : index
// CHECK: scf.if %{{.*}} -> (tensor<1x8xf32, #pld.tile>) {
// CHECK-NEXT: "pld.tile_remote_load"
// CHECK-NEXT: "pld.tile_fillpad"
// CHECK-NEXT: scf.yield
// Epilogue over every signal row: -2 * ceil(max_seg / C) per cell.
// CHECK: %[[NEG:.*]] = arith.constant -2 : i32
// CHECK: scf.for %[[R:.*]] = %c0 to %{{.*}} step %c1 {
// CHECK: "pld.system_notify"(%arg1, %[[ME]], %[[R]], %{{.*}}, %[[NEG]])
func.func @sum(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (!data, !sig) -> !data
  return
}

// A contiguous row-major prefix is a valid partial region.
// CHECK-LABEL: func.func @prefix
// CHECK: "pld.tensor_view"
func.func @prefix(%data: tensor<2x4x8xf32, #pld.dist_with<{valid_shape = array<i64: 1, 3, 8>}>>, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"max">, mode = "ring"} : (tensor<2x4x8xf32, #pld.dist_with<{valid_shape = array<i64: 1, 3, 8>}>>, !sig) -> tensor<2x4x8xf32, #pld.dist_with<{valid_shape = array<i64: 1, 3, 8>}>>
  return
}
