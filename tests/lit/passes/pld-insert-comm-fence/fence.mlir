// pld-insert-comm-fence: data-before-signal markers after publishing
// writes, calls and waits; idempotent.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-insert-comm-fence)' | FileCheck %s
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-insert-comm-fence)' -o %t
// RUN: pld-opt %t --pass-pipeline='builtin.module(pld-insert-comm-fence)' | diff %t -

!data = tensor<1x64xf32, #pld.dist>
!sig = tensor<2x1xi32, #pld.dist>
!tile = tensor<1x64xf32, #pld.tile>
func.func private @helper()

// CHECK-LABEL: func.func @kernel
func.func @kernel(%data: !data, %local: tensor<1x64xf32>, %sig: !sig, %t: !tile, %peer: i32, %one: i32)
    attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  // A local write into a window: region invalidate + fence.
  // CHECK: "pld.tile_store"(%arg3, %arg0, %c0, %c0)
  // CHECK-NEXT: %[[R:.*]] = arith.constant 1 : index
  // CHECK-NEXT: %[[C:.*]] = arith.constant 64 : index
  // CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : index
  // CHECK-NEXT: "pld.system_cacheinvalid"(%arg0, %[[R]], %[[C]], %[[Z]], %[[Z]]) {operandSegmentSizes = array<i32: 1, 2, 2>}
  // CHECK-NEXT: "pld.system_fence"()
  "pld.tile_store"(%t, %data, %c0, %c0) : (!tile, !data, index, index) -> ()
  // A write into a plain tensor needs nothing.
  // CHECK: "pld.tile_store"(%arg3, %arg1, %c0, %c0)
  // CHECK-NEXT: "pld.tile_remote_store"
  "pld.tile_store"(%t, %local, %c0, %c0) : (!tile, tensor<1x64xf32>, index, index) -> ()
  // A remote write: a fence (the peer line is invalidated by codegen).
  // CHECK-NEXT: "pld.system_fence"()
  // CHECK-NEXT: "pld.system_notify"
  "pld.tile_remote_store"(%t, %data, %peer, %c0, %c0) : (!tile, !data, i32, index, index) -> ()
  // A notify needs nothing.
  // CHECK-NEXT: "pld.system_wait"
  "pld.system_notify"(%sig, %peer, %c0, %c0, %one) {op = #pld.notify_op<"atomic_add">} : (!sig, i32, index, index, i32) -> ()
  // After a wait, a whole-GM invalidate before any read.
  // CHECK-NEXT: "pld.system_cacheinvalid"() {operandSegmentSizes = array<i32: 0, 0, 0>}
  // CHECK-NEXT: call @helper()
  "pld.system_wait"(%sig, %c0, %c0, %one) {cmp = #pld.wait_cmp<"ge">} : (!sig, index, index, i32) -> ()
  // A call may write anything: whole-GM invalidate + fence.
  // CHECK-NEXT: "pld.system_cacheinvalid"() {operandSegmentSizes = array<i32: 0, 0, 0>}
  // CHECK-NEXT: "pld.system_fence"()
  // CHECK-NEXT: return
  func.call @helper() : () -> ()
  return
}

// Orchestrators are untouched.
// CHECK-LABEL: func.func @chip
// CHECK-NEXT: call @helper()
// CHECK-NEXT: return
func.func @chip() attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @helper() : () -> ()
  return
}

// A dynamic window: the invalidate's extent comes from a tensor.dim, which
// the idempotence check looks through (the second run above adds nothing).
// CHECK-LABEL: func.func @dynamic
// CHECK: "pld.tile_store"(%arg1, %arg0, %c0, %c0)
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: %[[D:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x64xf32, #pld.dist>
// CHECK: "pld.system_cacheinvalid"(%arg0, %[[D]],
// CHECK-NEXT: "pld.system_fence"()
// CHECK-NOT: "pld.system_fence"
// CHECK: return
func.func @dynamic(%data: tensor<?x64xf32, #pld.dist>, %t: !tile) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  "pld.tile_store"(%t, %data, %c0, %c0) : (!tile, tensor<?x64xf32, #pld.dist>, index, index) -> ()
  return
}

// An invalidate of another window does not publish this one: the markers
// for %arg0 are still added.
// CHECK-LABEL: func.func @other_window
// CHECK: "pld.tile_store"(%arg2, %arg0, %c0, %c0)
// CHECK: "pld.system_cacheinvalid"(%arg0,
// CHECK-NEXT: "pld.system_fence"()
// CHECK-NEXT: "pld.system_cacheinvalid"(%arg1,
func.func @other_window(%data: !data, %other: !data, %t: !tile) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  "pld.tile_store"(%t, %data, %c0, %c0) : (!tile, !data, index, index) -> ()
  "pld.system_cacheinvalid"(%other, %c1, %c64, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!data, index, index, index, index) -> ()
  "pld.system_fence"() : () -> ()
  return
}

// A partial invalidate of the same window does not cover the store; a
// fence already after a store is reused once the invalidate precedes it.
// CHECK-LABEL: func.func @partial_and_fence
// CHECK: "pld.tile_store"(%arg1, %arg0, %c0, %c0)
// CHECK: "pld.system_cacheinvalid"(%arg0, %[[R:.*]], %[[C:.*]], %[[Z:.*]], %[[Z]])
// CHECK-NEXT: "pld.system_fence"()
// CHECK-NEXT: "pld.system_cacheinvalid"(%arg0, %c1, %c1, %c3, %c0)
// CHECK-NEXT: "pld.system_fence"()
// CHECK-NEXT: "pld.tile_store"(%arg1, %arg0, %c0, %c0)
// CHECK: "pld.system_cacheinvalid"(%arg0,
// CHECK-NEXT: "pld.system_fence"()
// CHECK-NEXT: return
func.func @partial_and_fence(%data: tensor<4x64xf32, #pld.dist>, %t: !tile) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  "pld.tile_store"(%t, %data, %c0, %c0) : (!tile, tensor<4x64xf32, #pld.dist>, index, index) -> ()
  "pld.system_cacheinvalid"(%data, %c1, %c1, %c3, %c0) {operandSegmentSizes = array<i32: 1, 2, 2>} : (tensor<4x64xf32, #pld.dist>, index, index, index, index) -> ()
  "pld.system_fence"() : () -> ()
  "pld.tile_store"(%t, %data, %c0, %c0) : (!tile, tensor<4x64xf32, #pld.dist>, index, index) -> ()
  "pld.system_fence"() : () -> ()
  return
}
