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

// Packed strides written out are the packed layout, and pass.
!i = tensor<3x16xf32, #pld.view<{strides = array<i64: 16, 1>}>>
!t = tensor<3x16xf32, #pld.dist_with<{layout = "nd"}>>
!s = tensor<3x1xi32, #pld.dist>
func.func @k(%inp: !i, %data: !t, %sig: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %a = "pld.tensor_all_to_all"(%inp, %data, %sig) : (!i, !t, !s) -> !t
  return
}
