// C36: signals and counts are packed ND and fully valid on every rail, and
// so is every operand of a collective in a HOST or CHIP function (their
// builtin kernels read packed rows). A strided signal's cells landed in the
// next parameter (a barrier that never synchronised reported "every rank
// got through it"); a strided HOST window was read as packed, and --check
// said ok.
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics

!s = tensor<5x1xi32, #pld.dist_with<{strides = array<i64: 8, 1>}>>
func.func @k(%sig: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'pld.tensor_barrier' op signal strides [8, 1] must be the packed strides [1, 1]}}
  %a = "pld.tensor_barrier"(%sig) : (!s) -> !s
  return
}

// -----

!data = tensor<2x32xf32, #pld.dist_with<{strides = array<i64: 64, 1>}>>
!sig = tensor<2xi32, #pld.dist>
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %b_data = arith.constant 512 : i64
  %p_data = "pld.tensor_alloc_window_buffer"(%b_data) {name = "data"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%p_data) : (!pld.ptr) -> !data
  %b_sig = arith.constant 32 : i64
  %p_sig = "pld.tensor_alloc_window_buffer"(%b_sig) {name = "sig"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%p_sig) : (!pld.ptr) -> !sig
  // expected-error@+1 {{'pld.tensor_broadcast' op target strides [64, 1] must be the packed strides [32, 1]}}
  %r = "pld.tensor_broadcast"(%data, %sig) {root = 1 : i64} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<64xf32, #pld.dist_with<{layout = "dn"}>>
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %b = arith.constant 256 : i64
  %p = "pld.tensor_alloc_window_buffer"(%b) {name = "data"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%p) : (!pld.ptr) -> !data
  // expected-error@+1 {{'pld.tensor_allreduce' op target layout must be ND}}
  %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (!data) -> !data
  return
}
