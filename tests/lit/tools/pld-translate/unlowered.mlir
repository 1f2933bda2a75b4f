// An orchestrator's collective that its rail has not lowered has neither
// builtin kernels nor PTO text yet: both emitters refuse it at the op, exit
// status 1, instead of writing an empty package or an empty module; both
// show the line and a caret (--emit=kernels showed neither).
//
// RUN: rm -rf %t && not pld-translate --emit=kernels %s -o %t 2>&1 | FileCheck %s
// RUN: not ls %t
// RUN: not pld-translate --emit=pto %s 2>&1 | FileCheck %s --check-prefix=PTO
// Lowered, the same module renders.
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-to-pto)' -o %t.lowered.mlir
// RUN: pld-translate --emit=kernels %t.lowered.mlir -o %t.k && ls %t.k/next_levels | FileCheck %s --check-prefix=LOWERED

!rows = tensor<4x16xf32, #pld.dist>
!signal = tensor<2x4xi32, #pld.dist>
!send_counts = tensor<2xi32, #pld.dist>
!recv_counts = tensor<2x1xi32, #pld.dist>

func.func @exchange(%send: !rows, %recv: !rows, %signal: !signal, %send_counts: !send_counts, %recv_counts: !recv_counts)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %core_num = arith.constant 5 : index
  // CHECK: unlowered.mlir:[[@LINE+4]]:8: error: 'pld.tensor_all_to_all_v' op is a CHIP collective that names no builtin kernel yet; lower it first (the pld-chip-pipeline or pld-to-pto pipeline)
  // CHECK-NEXT: {{^}}  %r = "pld.tensor_all_to_all_v"
  // CHECK-NEXT: {{^}}       ^
  // PTO: unlowered.mlir:[[@LINE+1]]:8: error: 'pld.tensor_all_to_all_v' op is a CHIP collective that names no builtin kernel yet; lower it first (the pld-chip-pipeline or pld-to-pto pipeline)
  %r = "pld.tensor_all_to_all_v"(%send, %recv, %signal, %send_counts, %recv_counts, %core_num)
      : (!rows, !rows, !signal, !send_counts, !recv_counts, index) -> !rows
  return
}
// LOWERED: exchange
