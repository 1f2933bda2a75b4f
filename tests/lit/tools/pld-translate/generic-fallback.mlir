// Ops without a custom form the printer knows keep the generic form, with
// PTOAS's op names and attribute spellings and the printer's value names.
//
// RUN: pld-translate --emit=pto %s | FileCheck %s --match-full-lines
// The generic forms parse with any MLIR parser:
// RUN: pld-translate --emit=pto %s | mlir-opt --allow-unregistered-dialect -o /dev/null

!part = !pto.partition_tensor_view<tensor<1x64xf32>>

// CHECK: func.func @fallback(%arg0: !pto.partition_tensor_view<1x64xf32>, %arg1: index, %arg2: !pto.tile_buf<vec, 1x64xf32>, %arg3: f32) attributes {pto.entry, pto.kernel_kind = #pto.kernel_kind<vector>} {
func.func @fallback(%p: !part, %n: index, %t: !pto.tile_buf<"vec", tensor<1x64xf32>, {valid = array<i64: 1, 64>}>, %pad: f32) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  // A load with a pad value has no custom form here: generic, with its
  // operand segments.
  // CHECK-NEXT: "pto.tload"(%arg0, %arg2, %arg3) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (!pto.partition_tensor_view<1x64xf32>, !pto.tile_buf<vec, 1x64xf32>, f32) -> ()
  "pto.tload"(%p, %t, %pad) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (!part, !pto.tile_buf<"vec", tensor<1x64xf32>, {valid = array<i64: 1, 64>}>, f32) -> ()
  // A get with an atomic mode keeps it, generically.
  // CHECK-NEXT: "pto.comm.tget"(%arg0, %arg0, %arg2) {atomicType = #pto<atomic_type atomic_add>} : (!pto.partition_tensor_view<1x64xf32>, !pto.partition_tensor_view<1x64xf32>, !pto.tile_buf<vec, 1x64xf32>) -> ()
  "pto.comm_tget"(%p, %p, %t) {atomicType = #pto.atomic_type<"atomic_add">} : (!part, !part, !pto.tile_buf<"vec", tensor<1x64xf32>, {valid = array<i64: 1, 64>}>) -> ()
  // scf.while has no custom form here: generic, with its regions.
  // CHECK-NEXT: %c0 = arith.constant 0 : index
  // CHECK-NEXT: %0 = "scf.while"(%c0) ({
  // CHECK-NEXT: ^bb0(%arg4: index):
  // CHECK-NEXT:   %1 = arith.cmpi slt, %arg4, %arg1 : index
  // CHECK-NEXT:   "scf.condition"(%1, %arg4) : (i1, index) -> ()
  // CHECK-NEXT: }, {
  // CHECK-NEXT: ^bb0(%arg5: index):
  // CHECK-NEXT:   %c1 = arith.constant 1 : index
  // CHECK-NEXT:   %2 = arith.addi %arg5, %c1 : index
  // CHECK-NEXT:   scf.yield %2 : index
  // CHECK-NEXT: }) : (index) -> (index)
  %c0 = arith.constant 0 : index
  %r = scf.while (%i = %c0) : (index) -> index {
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %i : index
  } do {
  ^bb0(%j: index):
    %c1 = arith.constant 1 : index
    %next = arith.addi %j, %c1 : index
    scf.yield %next : index
  }
  return
}
