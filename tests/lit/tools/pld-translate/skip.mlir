// Orchestrators and declarations are not PTO code: pld-translate lists them
// in a comment and emits the kernels only.
//
// RUN: pld-translate --emit=pto %s | FileCheck %s

// CHECK: // skipped @orchestrate: HOST orchestrator, not PTO code
// CHECK-NEXT: // skipped @extern: declaration
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @kernel(%arg0: !pto.ptr<f32>) attributes {pto.entry, pto.kernel_kind = #pto.kernel_kind<vector>} {
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NOT: orchestrate
func.func @orchestrate() attributes {pld.kind = #pld.func_kind<"host">} {
  return
}
func.func private @extern(index)
func.func @kernel(%p: !pto.ptr<f32>) attributes {pld.kind = #pld.func_kind<"incore">, pto.kernel_kind = #pto.kernel_kind<"vector">} {
  return
}
