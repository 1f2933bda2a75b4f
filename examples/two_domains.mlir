// Two comm domains in one program. `pair_buf` and its kernel's signal are
// dispatched to devices 0 and 1 only; `data_buf` is used by a HOST
// allreduce alone, which runs on every device. So
// pld-materialize-comm-domain-scopes makes two domains: comm_d0 over every
// device (data_buf and its synthesized signal) and, nested in it, comm_d1
// over devices 0 and 1 (pair_buf, pair_sig and the synthesized signal of
// the pair's HOST allreduce).
//
// Devices 0 and 1 first take the maximum of their pair_buf in an InCore
// kernel (composite rail); then the host sums data_buf over every device
// and pair_buf over the pair (HOST rail, signals synthesized).
//
//   pld-opt examples/two_domains.mlir --pass-pipeline='builtin.module(pld-host-pipeline)'
//   pld-run examples/two_domains.mlir --ranks 4 --check

!data = tensor<1x1024xf32, #pld.dist>
!pair = tensor<1x256xf32, #pld.dist>
!pair_signal = tensor<2x1xi32, #pld.dist>

// The composite-rail allreduce of the pair: one signal cell per rank of
// its comm domain, which has two ranks.
func.func @pair_max(%pair: !pair, %signal: !pair_signal)
    attributes {pld.kind = #pld.func_kind<"incore">} {
  %max = "pld.tensor_allreduce"(%pair, %signal) {op = #pld.reduce_op<"max">}
      : (!pair, !pair_signal) -> !pair
  return
}

func.func @pair_step(%pair: !pair, %signal: !pair_signal)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @pair_max(%pair, %signal) : (!pair, !pair_signal) -> ()
  return
}

func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %data_bytes = arith.constant 4096 : i64
  %pair_bytes = arith.constant 1024 : i64
  %signal_bytes = arith.constant 8 : i64
  %dbuf = "pld.tensor_alloc_window_buffer"(%data_bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %pbuf = "pld.tensor_alloc_window_buffer"(%pair_bytes) {name = "pair_buf"} : (i64) -> !pld.ptr
  %sbuf = "pld.tensor_alloc_window_buffer"(%signal_bytes) {name = "pair_sig"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%dbuf) : (!pld.ptr) -> !data
  %pair = "pld.tensor_window"(%pbuf) : (!pld.ptr) -> !pair
  %signal = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> !pair_signal
  // Devices 0 and 1: the pair's domain.
  scf.for %r = %c0 to %c2 step %c1 {
    "pld.dispatch"(%r) ({
      func.call @pair_step(%pair, %signal) : (!pair, !pair_signal) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  // Every device: data_buf is dispatched nowhere, so its HOST allreduce
  // runs on them all.
  %sum = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (!data) -> !data
  // The pair's devices only: pair_buf's domain.
  %pair_sum = "pld.tensor_allreduce"(%pair) {op = #pld.reduce_op<"sum">} : (!pair) -> !pair
  return
}
