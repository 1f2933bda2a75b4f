// The lowering reads the module's backend setting; it runs on the module
// (it is anchored on builtin.module), so nesting it under func.func is
// refused.
//
// RUN: pld-opt %s --verify-diagnostics --pass-pipeline='builtin.module(pld-materialize-comm-domain-scopes, pld-lower-host-tensor-collectives)'
// RUN: not pld-opt %s --pass-pipeline='builtin.module(func.func(pld-lower-host-tensor-collectives))' 2>&1 | FileCheck %s --check-prefix=NESTED
// NESTED: pass 'pld-lower-host-tensor-collectives' runs on builtin.module and cannot be nested under 'func.func'

!data = tensor<64xf32, #pld.dist>
!sig = tensor<4x8xi32, #pld.dist>
module attributes {pld.aiv_core_count = 4 : i64} {
  func.func @chip(%d: !data, %s: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
    return
  }
  func.func @h() attributes {pld.kind = #pld.func_kind<"host">} {
    %c0 = arith.constant 0 : index
    %b = arith.constant 256 : i64
    %p = "pld.tensor_alloc_window_buffer"(%b) {name = "data_buf"} : (i64) -> !pld.ptr
    %q = "pld.tensor_alloc_window_buffer"(%b) {name = "sig_buf"} : (i64) -> !pld.ptr
    %data = "pld.tensor_window"(%p) : (!pld.ptr) -> !data
    %sig = "pld.tensor_window"(%q) : (!pld.ptr) -> !sig
    "pld.dispatch"(%c0) ({
      func.call @chip(%data, %sig) : (!data, !sig) -> ()
      gpu.yield
    }) : (index) -> ()
    // expected-error@+1 {{core_num (8) exceeds the backend AIV core count (4)}}
    %x = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, core_num = 8 : i64} : (!data, !sig) -> !data
    return
  }
}
