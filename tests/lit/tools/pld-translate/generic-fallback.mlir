// Ops without a custom form the printer knows keep the generic form, with
// PTOAS's op names and attribute spellings and the printer's value names.
//
// RUN: pld-translate --emit=pto %s | FileCheck %s --match-full-lines

!part = !pto.partition_tensor_view<tensor<1x64xf32>>

// CHECK: func.func @fallback(%arg0: !pto.partition_tensor_view<1x64xf32>, %arg1: index) attributes {pto.entry, pto.kernel_kind = #pto.kernel_kind<vector>} {
func.func @fallback(%p: !part, %n: index) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  // An address with line = all has no custom spelling.
  // CHECK-NEXT: "pto.cmo.cacheinvalid"(%arg0) {line = #pto.cache_line<all>} : (!pto.partition_tensor_view<1x64xf32>) -> ()
  "pto.cmo_cacheinvalid"(%p) {line = #pto.cache_line<"all">} : (!part) -> ()
  // scf.while has no custom form here: generic, with its regions.
  // CHECK-NEXT: %c0 = arith.constant 0 : index
  // CHECK-NEXT: %0 = "scf.while"(%c0) ({
  // CHECK-NEXT: ^bb0(%arg2: index):
  // CHECK-NEXT:   %1 = arith.cmpi slt, %arg2, %arg1 : index
  // CHECK-NEXT:   "scf.condition"(%1, %arg2) : (i1, index) -> ()
  // CHECK-NEXT: }, {
  // CHECK-NEXT: ^bb0(%arg3: index):
  // CHECK-NEXT:   %c1 = arith.constant 1 : index
  // CHECK-NEXT:   %2 = arith.addi %arg3, %c1 : index
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
