// A small distributed program: a HOST orchestrator allocates a window,
// dispatches a CHIP orchestrator on every device, and allreduces the window
// through the HOST rail; an InCore kernel allreduces a tile-sized buffer
// through the composite rail with an explicit signal.
//
//   pld-opt examples/allreduce.mlir

!data = tensor<1x4096xf32, #pld.dist>
!signal = tensor<8x1xi32, #pld.dist>

// One device's step: hands the window to its kernel.
func.func @chip_step(%data: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}

// The composite-rail allreduce: the kernel author passes the signal.
func.func @reduce_kernel(%data: !data, %signal: !signal)
    attributes {pld.kind = #pld.func_kind<"incore">} {
  %sum = "pld.tensor_allreduce"(%data, %signal) {op = #pld.reduce_op<"sum">}
      : (!data, !signal) -> !data
  return
}

// The HOST orchestrator: window allocation, per-device dispatch, and an
// allreduce whose signal the HOST pipeline will synthesize.
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 16384 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %devices = arith.index_cast %ws : i64 to index
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  scf.for %r = %c0 to %devices step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip_step(%data) : (!data) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  %sum = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (!data) -> !data
  return
}
