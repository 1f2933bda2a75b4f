// broadcast, reduce_scatter, allgather and all_to_all copy whole packed
// rows, so their data operands must be ND, packed and fully valid. Each of
// these passed and then went wrong: a strided operand's copies ran past its
// buffer (pld-run: "a store of bytes 0..384 relative to rank 0's window
// leaves it"), a "dn" one was read as row-major (--check WRONG on a kernel
// that moved memory order), a "dn" reduce_scatter target failed on the
// verifier of a pld.tile_remote_load the pass made, and a partial
// valid_shape was ignored (whole rows copied, --check agreeing).
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(pld-lower-composite-ops)'

!t = tensor<2x32xf32, #pld.dist_with<{strides = array<i64: 64, 1>}>>
!s = tensor<3x1xi32, #pld.dist>
func.func @k(%data: !t, %sig: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'pld.tensor_broadcast' op target shape reinterpret requires a packed source}}
  %a = "pld.tensor_broadcast"(%data, %sig) {root = 1 : i64} : (!t, !s) -> !t
  return
}

// -----

!t = tensor<2x16xf32, #pld.dist_with<{valid_shape = array<i64: 2, 10>}>>
!s = tensor<2x1xi32, #pld.dist>
func.func @k(%data: !t, %sig: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'pld.tensor_broadcast' op a target with a valid_shape is not supported by pld.tensor_broadcast yet}}
  %a = "pld.tensor_broadcast"(%data, %sig) {root = 0 : i64} : (!t, !s) -> !t
  return
}

// -----

!t = tensor<3x16xf32, #pld.dist_with<{layout = "dn"}>>
!s = tensor<3x1xi32, #pld.dist>
func.func @k(%data: !t, %sig: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'pld.tensor_reduce_scatter' op target view only supports ND layout}}
  %a = "pld.tensor_reduce_scatter"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!t, !s) -> !t
  return
}

// -----

!i = tensor<1x16xf32>
!t = tensor<3x16xf32, #pld.dist_with<{layout = "dn"}>>
!s = tensor<3x1xi32, #pld.dist>
func.func @k(%inp: !i, %data: !t, %sig: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'pld.tensor_allgather' op target view only supports ND layout}}
  %a = "pld.tensor_allgather"(%inp, %data, %sig) : (!i, !t, !s) -> !t
  return
}

// -----

!i = tensor<1x16xf32, #pld.view<{valid_shape = array<i64: 1, 10>}>>
!t = tensor<3x16xf32, #pld.dist>
!s = tensor<3x1xi32, #pld.dist>
func.func @k(%inp: !i, %data: !t, %sig: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'pld.tensor_allgather' op an input with a valid_shape is not supported by pld.tensor_allgather yet}}
  %a = "pld.tensor_allgather"(%inp, %data, %sig) : (!i, !t, !s) -> !t
  return
}

// -----

!i = tensor<3x16xf32, #pld.view<{strides = array<i64: 20, 1>}>>
!t = tensor<3x16xf32, #pld.dist>
!s = tensor<3x1xi32, #pld.dist>
func.func @k(%inp: !i, %data: !t, %sig: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'pld.tensor_all_to_all' op input shape reinterpret requires a packed source}}
  %a = "pld.tensor_all_to_all"(%inp, %data, %sig) : (!i, !t, !s) -> !t
  return
}

// -----

// A valid region given by a pld.tensor_view's valid_shape operands (its type
// fully valid) was ignored the same way: whole rows moved, "ok".
!t = tensor<3x16xf32, #pld.dist>
!s = tensor<3x1xi32, #pld.dist>
func.func @k(%data: !t, %sig: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c2 = arith.constant 2 : index
  %c10 = arith.constant 10 : index
  %v = "pld.tensor_view"(%data, %c2, %c10) {operandSegmentSizes = array<i32: 1, 0, 2>} : (!t, index, index) -> !t
  // expected-error@+1 {{'pld.tensor_broadcast' op a target that is a pld.tensor_view with valid_shape operands other than its full shape is not supported by pld.tensor_broadcast yet (its whole rows would be moved)}}
  %a = "pld.tensor_broadcast"(%v, %sig) {root = 1 : i64} : (!t, !s) -> !t
  return
}

// -----

!i = tensor<1x16xf32, #pld.dist>
!t = tensor<3x16xf32, #pld.dist>
!s = tensor<3x1xi32, #pld.dist>
func.func @k(%inp: !i, %data: !t, %sig: !s, %n: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c1 = arith.constant 1 : index
  %w = "pld.tensor_view"(%inp, %c1, %n) {operandSegmentSizes = array<i32: 1, 0, 2>} : (!i, index, index) -> !i
  // expected-error@+1 {{'pld.tensor_allgather' op an input that is a pld.tensor_view with valid_shape operands other than its full shape}}
  %g = "pld.tensor_allgather"(%w, %data, %sig) : (!i, !t, !s) -> !t
  return
}

// -----

// Its full shape as constants passes.
!t = tensor<3x16xf32, #pld.dist>
!s = tensor<3x1xi32, #pld.dist>
func.func @k(%data: !t, %sig: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %f = "pld.tensor_view"(%data, %c3, %c16) {operandSegmentSizes = array<i32: 1, 0, 2>} : (!t, index, index) -> !t
  %b = "pld.tensor_broadcast"(%f, %sig) {root = 1 : i64} : (!t, !s) -> !t
  return
}

// -----

// Packed strides written out are the packed layout, and pass.
!i = tensor<3x16xf32, #pld.view<{strides = array<i64: 16, 1>}>>
!t = tensor<3x16xf32, #pld.dist_with<{layout = "nd"}>>
!s = tensor<3x1xi32, #pld.dist>
func.func @k(%inp: !i, %data: !t, %sig: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %a = "pld.tensor_all_to_all"(%inp, %data, %sig) : (!i, !t, !s) -> !t
  return
}
