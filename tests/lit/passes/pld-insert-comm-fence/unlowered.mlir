// pld-insert-comm-fence comes after every collective rewrite (spec 6.3). Run before
// them, it used to pass without a word, and the rewrites then emitted what
// it never saw (unfenced stores, unresolved contexts): it refuses a
// collective still there, naming the pass that lowers it.
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(pld-insert-comm-fence)'
// In a pipeline of the wrong order, the same refusal (exit status 1):
// RUN: not pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-insert-comm-fence,pld-lower-composite-ops,pld-lower-l2-tensor-collectives)' 2>&1 | FileCheck %s
// CHECK: error: 'pld.tensor_allreduce' op is not lowered yet: pld-lower-composite-ops must run before pld-insert-comm-fence

!pair = tensor<1x64xf32, #pld.dist>
!signal = tensor<2x1xi32, #pld.dist>
func.func @k(%pair: !pair, %signal: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'pld.tensor_allreduce' op is not lowered yet: pld-lower-composite-ops must run before pld-insert-comm-fence, which comes after every collective rewrite (spec 6.3)}}
  %a = "pld.tensor_allreduce"(%pair, %signal) {op = #pld.reduce_op<"sum">} : (!pair, !signal) -> !pair
  return
}

// -----

!rows = tensor<8x16xf32, #pld.dist>
!signal = tensor<2x4xi32, #pld.dist>
!send_counts = tensor<2xi32, #pld.dist>
!recv_counts = tensor<2x1xi32, #pld.dist>
func.func @pipeline(%send: !rows, %recv: !rows, %signal: !signal, %send_counts: !send_counts, %recv_counts: !recv_counts) attributes {pld.kind = #pld.func_kind<"chip">} {
  // expected-error@+1 {{'pld.tensor_all_to_all_v' op is not lowered yet: pld-lower-l2-tensor-collectives must run before pld-insert-comm-fence}}
  %received = "pld.tensor_all_to_all_v"(%send, %recv, %signal, %send_counts, %recv_counts) : (!rows, !rows, !signal, !send_counts, !recv_counts) -> !rows
  return
}

// -----

// After the rewrites nothing is left to refuse.
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-lower-composite-ops,pld-lower-l2-tensor-collectives,pld-materialize-dist-tensor-ctx,pld-insert-comm-fence)' > /dev/null
