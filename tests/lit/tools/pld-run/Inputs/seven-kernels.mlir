!data = tensor<1x4096xf32, #pld.dist>
!signal = tensor<8x1xi32, #pld.dist>
func.func @k0(%data: !data, %signal: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %sum = "pld.tensor_allreduce"(%data, %signal) {op = #pld.reduce_op<"sum">} : (!data, !signal) -> !data
  return
}
func.func @k1(%data: !data, %signal: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %sum = "pld.tensor_allreduce"(%data, %signal) {op = #pld.reduce_op<"sum">} : (!data, !signal) -> !data
  return
}
func.func @k2(%data: !data, %signal: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %sum = "pld.tensor_allreduce"(%data, %signal) {op = #pld.reduce_op<"sum">} : (!data, !signal) -> !data
  return
}
func.func @k3(%data: !data, %signal: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %sum = "pld.tensor_allreduce"(%data, %signal) {op = #pld.reduce_op<"sum">} : (!data, !signal) -> !data
  return
}
func.func @k4(%data: !data, %signal: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %sum = "pld.tensor_allreduce"(%data, %signal) {op = #pld.reduce_op<"sum">} : (!data, !signal) -> !data
  return
}
func.func @k5(%data: !data, %signal: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %sum = "pld.tensor_allreduce"(%data, %signal) {op = #pld.reduce_op<"sum">} : (!data, !signal) -> !data
  return
}
func.func @k6(%data: !data, %signal: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %sum = "pld.tensor_allreduce"(%data, %signal) {op = #pld.reduce_op<"sum">} : (!data, !signal) -> !data
  return
}
func.func @chip_step(%data: !data, %signal: !signal) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @k0(%data, %signal) : (!data, !signal) -> ()
  func.call @k1(%data, %signal) : (!data, !signal) -> ()
  func.call @k2(%data, %signal) : (!data, !signal) -> ()
  func.call @k3(%data, %signal) : (!data, !signal) -> ()
  func.call @k4(%data, %signal) : (!data, !signal) -> ()
  func.call @k5(%data, %signal) : (!data, !signal) -> ()
  func.call @k6(%data, %signal) : (!data, !signal) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 16384 : i64
  %signal_bytes = arith.constant 32 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %devices = arith.index_cast %ws : i64 to index
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  %sbuf = "pld.tensor_alloc_window_buffer"(%signal_bytes) {name = "kernel_signal_buf"} : (i64) -> !pld.ptr
  %signal = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> !signal
  scf.for %r = %c0 to %devices step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip_step(%data, %signal) : (!data, !signal) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}
