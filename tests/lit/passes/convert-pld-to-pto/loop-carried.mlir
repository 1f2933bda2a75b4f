// The rebind idiom: a barrier and an allreduce whose data and signal are
// carried by a loop (`%s2 = "pld.tensor_barrier"(%s)` yielded back), with
// scf.for, scf.while and scf.if. pld-to-pto converts them without a
// canonicalize first: a carried tensor is the kernel parameter it starts
// as, so the carries become that parameter's pointer, passed in and
// yielded back.
//
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-to-pto)' | FileCheck %s

!data = tensor<1x64xf32, #pld.dist>
!sig = tensor<2x1xi32, #pld.dist>
// CHECK-LABEL: func.func @for_loop(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<i32>, %arg2: !pto.ptr<i64>, %arg3: !pto.ptr<i64>)
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %arg0, %{{.*}} = %arg1) -> (!pto.ptr<f32>, !pto.ptr<i32>) {
// CHECK: pto.comm_tnotify
// CHECK: pto.comm_twait
// CHECK: pto.tadd
// CHECK: scf.yield %arg0, %arg1 : !pto.ptr<f32>, !pto.ptr<i32>
// CHECK-NOT: pld.
func.func @for_loop(%d: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %r:2 = scf.for %i = %c0 to %c5 step %c1 iter_args(%x = %d, %s = %sig) -> (!data, !sig) {
    %s2 = "pld.tensor_barrier"(%s) : (!sig) -> !sig
    %x2 = "pld.tensor_allreduce"(%x, %s2) {op = #pld.reduce_op<"sum">} : (!data, !sig) -> !data
    scf.yield %x2, %s2 : !data, !sig
  }
  return
}

// -----

!data = tensor<1x64xf32, #pld.dist>
!sig = tensor<2x1xi32, #pld.dist>
// CHECK-LABEL: func.func @while_loop(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<i32>, %arg2: !pto.ptr<i64>, %arg3: !pto.ptr<i64>)
// CHECK: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %arg0, %{{.*}} = %arg1) : (index, !pto.ptr<f32>, !pto.ptr<i32>) -> (index, !pto.ptr<f32>, !pto.ptr<i32>) {
// CHECK: scf.condition(%{{.*}}) %{{.*}}, %arg0, %arg1 : index, !pto.ptr<f32>, !pto.ptr<i32>
// CHECK: } do {
// CHECK: ^bb0(%{{.*}}: index, %{{.*}}: !pto.ptr<f32>, %{{.*}}: !pto.ptr<i32>):
// CHECK: pto.comm_twait
// CHECK: scf.yield %{{.*}}, %arg0, %arg1 : index, !pto.ptr<f32>, !pto.ptr<i32>
// CHECK-NOT: pld.
func.func @while_loop(%d: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %r:3 = scf.while (%i = %c0, %x = %d, %s = %sig) : (index, !data, !sig) -> (index, !data, !sig) {
    %go = arith.cmpi slt, %i, %c5 : index
    scf.condition(%go) %i, %x, %s : index, !data, !sig
  } do {
  ^bb0(%j: index, %y: !data, %t: !sig):
    %t2 = "pld.tensor_barrier"(%t) : (!sig) -> !sig
    %y2 = "pld.tensor_allreduce"(%y, %t2) {op = #pld.reduce_op<"sum">} : (!data, !sig) -> !data
    %j2 = arith.addi %j, %c1 : index
    scf.yield %j2, %y2, %t2 : index, !data, !sig
  }
  return
}

// -----

!sig = tensor<2x1xi32, #pld.dist>
// A branch result: both branches yield the signal (one after a barrier).
// CHECK-LABEL: func.func @branch(%arg0: !pto.ptr<i32>, %arg1: i1, %arg2: !pto.ptr<i64>)
// CHECK: scf.if %arg1 -> (!pto.ptr<i32>) {
// CHECK: scf.yield %arg0 : !pto.ptr<i32>
// CHECK: } else {
// CHECK-NEXT: scf.yield %arg0 : !pto.ptr<i32>
// CHECK: pto.comm_twait
// CHECK-NOT: pld.
func.func @branch(%sig: !sig, %flag: i1) attributes {pld.kind = #pld.func_kind<"incore">} {
  %w = scf.if %flag -> (!sig) {
    %b = "pld.tensor_barrier"(%sig) : (!sig) -> !sig
    scf.yield %b : !sig
  } else {
    scf.yield %sig : !sig
  }
  %w2 = "pld.tensor_barrier"(%w) : (!sig) -> !sig
  return
}
