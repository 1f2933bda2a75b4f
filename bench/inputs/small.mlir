// Small valid pld program used by `pld-bench cold-start`: one CHIP kernel
// dispatched from a HOST orchestrator that allocates a window buffer and
// all-reduces it. Kept small on purpose so that the measured time is
// dominated by tool start-up (context creation, dialect loading), not parsing.

!data = tensor<64xf32, #pld.dist>

func.func @chip_step(%d: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}

func.func @host_main() -> !data attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %bytes = arith.constant 256 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  "pld.dispatch"(%c0) ({
    func.call @chip_step(%data) : (!data) -> ()
    gpu.yield
  }) : (index) -> ()
  %sum = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (!data) -> !data
  return %sum : !data
}
