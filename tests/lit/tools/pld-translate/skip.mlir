// Orchestrators and declarations are not PTO code: pld-translate lists them
// in a comment and emits the kernels only.
//
// RUN: pld-translate --emit=pto %s | FileCheck %s
// The output parses as MLIR (PTO ops aside, everything here is upstream):
// RUN: pld-translate --emit=pto %s | mlir-opt --allow-unregistered-dialect -o /dev/null
// A failed translation leaves an existing output file untouched:
// RUN: echo keep > %t && not pld-translate --emit=pto %S/errors.mlir -o %t 2>/dev/null; FileCheck %s --input-file=%t --check-prefix=KEEP
// KEEP: keep

// CHECK: // skipped @orchestrate: HOST orchestrator, not PTO code
// CHECK-NEXT: // skipped @extern: declaration
// A converted kernel's declaration is one too (it failed: "a kernel needs
// a body").
// CHECK-NEXT: // skipped @declared_kernel: declaration
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @kernel(%arg0: !pto.ptr<f32>) attributes {pto.entry, pto.kernel_kind = #pto.kernel_kind<vector>} {
// CHECK-NEXT:     call @"my-helper"(%arg0) : (!pto.ptr<f32>) -> ()
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// A kernel may call another kernel; names that are not identifiers stay
// quoted.
// CHECK-NEXT:   func.func private @"my-helper"(%arg0: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }
func.func @orchestrate() attributes {pld.kind = #pld.func_kind<"host">} {
  return
}
func.func private @extern(index)
func.func private @declared_kernel(!pto.ptr<f32>) attributes {pld.kind = #pld.func_kind<"aiv">, pto.kernel_kind = #pto.kernel_kind<"vector">}
func.func @kernel(%p: !pto.ptr<f32>) attributes {pld.kind = #pld.func_kind<"incore">, pto.kernel_kind = #pto.kernel_kind<"vector">} {
  func.call @"my-helper"(%p) : (!pto.ptr<f32>) -> ()
  return
}
func.func private @"my-helper"(%p: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  return
}
