// The lowering needs the comm domains of pld-materialize-comm-domain-scopes.
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(pld-lower-host-tensor-collectives)'

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

// Each operand in a scope around the op, but in different ones: buffers
// of different comm domains (devices 0, 1 and 0 to 3). It said to run
// pld-materialize-comm-domain-scopes, which made the scopes (prog24
// MED-4).

// -----

!a = tensor<64xf32, #pld.dist>
!s = tensor<4x1xi32, #pld.dist>
func.func @two() attributes {pld.kind = #pld.func_kind<"host">} {
  %b = arith.constant 256 : i64
  "pld.comm_domain"() ({
    %q = "pld.tensor_alloc_window_buffer"(%b) {name = "s"} : (i64) -> !pld.ptr
    %s = "pld.tensor_window"(%q) : (!pld.ptr) -> !s
    "pld.comm_domain"() ({
      %p = "pld.tensor_alloc_window_buffer"(%b) {name = "a"} : (i64) -> !pld.ptr
      %a = "pld.tensor_window"(%p) : (!pld.ptr) -> !a
      // expected-error@+1 {{'pld.tensor_allreduce' op takes window buffers of different comm domains, a (devices 0, 1) and s (devices 0 to 3): a collective's operands are buffers of one comm domain (use them on the same devices)}}
      %x = "pld.tensor_allreduce"(%a, %s) {op = #pld.reduce_op<"sum">} : (!a, !s) -> !a
      gpu.yield
    }) {name = "inner", devices = array<i64: 0, 1>, slots = ["a"]} : () -> ()
    gpu.yield
  }) {name = "outer", devices = array<i64: 0, 1, 2, 3>, slots = ["s"]} : () -> ()
  return
}

// -----

// A scope that lists no device spans them all (it said "s (devices )",
// recheck24b M1).
!a = tensor<64xf32, #pld.dist>
!s = tensor<4x1xi32, #pld.dist>
func.func @every() attributes {pld.kind = #pld.func_kind<"host">} {
  %b = arith.constant 256 : i64
  "pld.comm_domain"() ({
    %q = "pld.tensor_alloc_window_buffer"(%b) {name = "s"} : (i64) -> !pld.ptr
    %s = "pld.tensor_window"(%q) : (!pld.ptr) -> !s
    "pld.comm_domain"() ({
      %p = "pld.tensor_alloc_window_buffer"(%b) {name = "a"} : (i64) -> !pld.ptr
      %a = "pld.tensor_window"(%p) : (!pld.ptr) -> !a
      // expected-error@+1 {{takes window buffers of different comm domains, a (devices 0, 1) and s (every device): }}
      %x = "pld.tensor_allreduce"(%a, %s) {op = #pld.reduce_op<"sum">} : (!a, !s) -> !a
      gpu.yield
    }) {name = "inner", devices = array<i64: 0, 1>, slots = ["a"]} : () -> ()
    gpu.yield
  }) {name = "outer", devices = array<i64>, slots = ["s"]} : () -> ()
  return
}
