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

// -----

// A pld.tensor_view is its source's elements in another shape: an operand
// and a view of it are one tensor (an all_to_all from a view of its own
// target passed, ran and gave wrong rows); so are two views of one tensor.
!t = tensor<3x8xf32, #pld.dist>
!s = tensor<3x1xi32, #pld.dist>
func.func @k(%x: !t, %sig: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %v = "pld.tensor_view"(%x) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!t) -> !t
  // expected-error@+1 {{'pld.tensor_all_to_all' op input and target must be different values (input is target's elements: a pld.tensor_view of it)}}
  %r = "pld.tensor_all_to_all"(%v, %x, %sig) : (!t, !t, !s) -> !t
  return
}

// -----

!t = tensor<3x8xf32, #pld.dist>
!f = tensor<1x24xf32, #pld.dist>
!s = tensor<3x1xi32, #pld.dist>
func.func @k(%x: !t, %sig: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %a = "pld.tensor_view"(%x) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!t) -> !f
  %b = "pld.tensor_view"(%a) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!f) -> !t
  // expected-error@+1 {{'pld.tensor_all_to_all' op input and target must be different values (target is input's elements: a pld.tensor_view of it)}}
  %r = "pld.tensor_all_to_all"(%x, %b, %sig) : (!t, !t, !s) -> !t
  return
}

// -----

!t = tensor<3x8xf32, #pld.dist>
!s = tensor<3x1xi32, #pld.dist>
func.func @k(%x: !t, %sig: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %a = "pld.tensor_view"(%x) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!t) -> !t
  %b = "pld.tensor_view"(%x) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!t) -> !t
  // expected-error@+1 {{'pld.tensor_all_to_all' op input and target must be different values (input and target are one tensor's elements, through pld.tensor_views or collectives' results)}}
  %r = "pld.tensor_all_to_all"(%a, %b, %sig) : (!t, !t, !s) -> !t
  return
}

// -----

// A collective's result is its target's storage: an all_to_all from the
// result of a reduce_scatter into that target passed and raced with itself.
!t = tensor<4x16xf32, #pld.dist>
!s = tensor<4x1xi32, #pld.dist>
func.func @k(%out: !t, %sig: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_reduce_scatter"(%out, %sig) {op = #pld.reduce_op<"sum">} : (!t, !s) -> !t
  // expected-error@+1 {{'pld.tensor_all_to_all' op input and target must be different values (input is target's elements: the result of pld.tensor_reduce_scatter)}}
  %c = "pld.tensor_all_to_all"(%r, %out, %sig) : (!t, !t, !s) -> !t
  return
}
