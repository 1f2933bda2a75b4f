// The lowering needs the comm domains of pld-materialize-comm-domain-scopes.
//
// RUN: pld-opt %s --verify-diagnostics --pass-pipeline='builtin.module(pld-lower-host-tensor-collectives)'

!data = tensor<64xf32, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>
func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
  %b = arith.constant 256 : i64
  %p = "pld.tensor_alloc_window_buffer"(%b) {name = "data_buf"} : (i64) -> !pld.ptr
  %q = "pld.tensor_alloc_window_buffer"(%b) {name = "sig_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%p) : (!pld.ptr) -> !data
  %sig = "pld.tensor_window"(%q) : (!pld.ptr) -> !sig
  // expected-error@+1 {{is not inside a pld.comm_domain holding data_buf, sig_buf; run pld-materialize-comm-domain-scopes first}}
  %x = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!data, !sig) -> !data
  return
}
