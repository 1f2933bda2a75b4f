// C9: every operand of a collective is a tensor of its own. A signal that
// was also the target passed in InCore kernels (the HOST rail refused it)
// and ran into credit leaks, wrong results or a deadlock.
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics

!s = tensor<3x1xi32, #pld.dist>
func.func @k(%sig: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'pld.tensor_broadcast' op target and signal must be different values}}
  %a = "pld.tensor_broadcast"(%sig, %sig) {root = 1 : i64} : (!s, !s) -> !s
  return
}

// -----

!i = tensor<1x1xi32>
!s = tensor<3x1xi32, #pld.dist>
func.func @k(%in: !i, %sig: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'pld.tensor_allgather' op target and signal must be different values}}
  %a = "pld.tensor_allgather"(%in, %sig, %sig) : (!i, !s, !s) -> !s
  return
}

// -----

!t = tensor<3x4xf32, #pld.dist>
!s = tensor<3x1xi32, #pld.dist>
func.func @k(%t: !t, %sig: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'pld.tensor_all_to_all' op input and target must be different values}}
  %a = "pld.tensor_all_to_all"(%t, %t, %sig) : (!t, !t, !s) -> !t
  return
}
