// A small distributed program: a HOST orchestrator allocates two windows,
// dispatches a CHIP orchestrator on every device, whose InCore kernel
// allreduces the data through the composite rail with an explicit signal;
// then the host allreduces the same window again through the HOST rail,
// with a signal the HOST pipeline synthesizes.
//
//   pld-opt examples/allreduce.mlir
//   pld-run examples/allreduce.mlir --ranks 4 --check --stats

!data = tensor<1x4096xf32, #pld.dist>
!signal = tensor<8x1xi32, #pld.dist>

// The composite-rail allreduce: the kernel author passes the signal (one
// cell per rank, for up to 8 ranks).
func.func @reduce_kernel(%data: !data, %signal: !signal)
    attributes {pld.kind = #pld.func_kind<"incore">} {
  %sum = "pld.tensor_allreduce"(%data, %signal) {op = #pld.reduce_op<"sum">}
      : (!data, !signal) -> !data
  return
}

// One device's step: runs its kernel on the window.
func.func @chip_step(%data: !data, %signal: !signal) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @reduce_kernel(%data, %signal) : (!data, !signal) -> ()
  return
}

// The HOST orchestrator: window allocation, per-device dispatch, and an
// allreduce whose signal the HOST pipeline will synthesize.
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
  %sum = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (!data) -> !data
  return
}
