// --mlir-print-ir-after-failure: the IR is dumped after the pass that
// failed, and only then (MLIR's header ends in `Failed`).
//
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-verify,convert-pld-to-pto)' --mlir-print-ir-after-failure 2>&1 | FileCheck %s
// CHECK-NOT: IR Dump After PldVerify
// CHECK: // -----// IR Dump After ConvertPldToPto Failed (convert-pld-to-pto) //----- //
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @no_ctx
// CHECK: error: 'func.func' op 1 distributed parameters but 0 CommContext parameters
//
// Nothing is dumped when every pass succeeds.
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-verify)' --mlir-print-ir-after-failure 2>&1 >/dev/null | FileCheck %s --check-prefix=OK --allow-empty
// OK-NOT: IR Dump

!data = tensor<1x64xf32, #pld.dist>
func.func @no_ctx(%d: !data) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}
