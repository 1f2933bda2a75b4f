// The CHIP rail: one CHIP orchestrator per device stages its rows with an
// InCore kernel, exchanges them with all_to_all_v and consumes what it
// received with a second kernel: three tasks of one pipeline, one L3 -> L2
// round trip per device. pld-lower-l2-tensor-collectives (in pld-to-pto)
// turns the exchange into a call of the synthesized builtin kernel
// @__builtin_all_to_all_v__fp32, launched on B = CalAllToAllVBlocks(2, 5)
// = 4 AIV blocks.
//
//   pld-opt examples/chip_all_to_all_v.mlir --pass-pipeline='builtin.module(pld-chip-pipeline)'
//   pld-run examples/chip_all_to_all_v.mlir --ranks 2 --check --stats

// Up to 4 rows of 16 floats from each of the 2 ranks.
!rows = tensor<8x16xf32, #pld.dist>
!flat = tensor<1x128xf32, #pld.dist>
!ar_signal = tensor<8x1xi32, #pld.dist>
// One row per peer, one column per signal lane (at least B = 4).
!signal = tensor<2x4xi32, #pld.dist>
!send_counts = tensor<2xi32, #pld.dist>
!recv_counts = tensor<2x1xi32, #pld.dist>

// Staging: the rows to send are the sum over the ranks of their inputs.
func.func @stage(%rows: !flat, %signal: !ar_signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %sum = "pld.tensor_allreduce"(%rows, %signal) {op = #pld.reduce_op<"sum">} : (!flat, !ar_signal) -> !flat
  return
}

// Consuming: the received rows, maximised over the ranks.
func.func @consume(%rows: !flat, %signal: !ar_signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %max = "pld.tensor_allreduce"(%rows, %signal) {op = #pld.reduce_op<"max">} : (!flat, !ar_signal) -> !flat
  return
}

func.func @pipeline(%send: !rows, %recv: !rows, %send_flat: !flat, %recv_flat: !flat,
                    %stage_signal: !ar_signal, %consume_signal: !ar_signal, %signal: !signal,
                    %send_counts: !send_counts, %recv_counts: !recv_counts)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @stage(%send_flat, %stage_signal) : (!flat, !ar_signal) -> ()
  %core_num = arith.constant 5 : index
  %received = "pld.tensor_all_to_all_v"(%send, %recv, %signal, %send_counts, %recv_counts, %core_num)
      : (!rows, !rows, !signal, !send_counts, !recv_counts, index) -> !rows
  func.call @consume(%recv_flat, %consume_signal) : (!flat, !ar_signal) -> ()
  return
}

func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %row_bytes = arith.constant 512 : i64
  %ar_bytes = arith.constant 32 : i64
  %signal_bytes = arith.constant 32 : i64
  %count_bytes = arith.constant 8 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %devices = arith.index_cast %ws : i64 to index
  %send_buf = "pld.tensor_alloc_window_buffer"(%row_bytes) {name = "send"} : (i64) -> !pld.ptr
  %recv_buf = "pld.tensor_alloc_window_buffer"(%row_bytes) {name = "recv"} : (i64) -> !pld.ptr
  %stage_buf = "pld.tensor_alloc_window_buffer"(%ar_bytes) {name = "stage_signal"} : (i64) -> !pld.ptr
  %consume_buf = "pld.tensor_alloc_window_buffer"(%ar_bytes) {name = "consume_signal"} : (i64) -> !pld.ptr
  %signal_buf = "pld.tensor_alloc_window_buffer"(%signal_bytes) {name = "signal"} : (i64) -> !pld.ptr
  %send_counts_buf = "pld.tensor_alloc_window_buffer"(%count_bytes) {name = "send_counts"} : (i64) -> !pld.ptr
  %recv_counts_buf = "pld.tensor_alloc_window_buffer"(%count_bytes) {name = "recv_counts"} : (i64) -> !pld.ptr
  %send = "pld.tensor_window"(%send_buf) : (!pld.ptr) -> !rows
  %recv = "pld.tensor_window"(%recv_buf) : (!pld.ptr) -> !rows
  %send_flat = "pld.tensor_window"(%send_buf) : (!pld.ptr) -> !flat
  %recv_flat = "pld.tensor_window"(%recv_buf) : (!pld.ptr) -> !flat
  %stage_signal = "pld.tensor_window"(%stage_buf) : (!pld.ptr) -> !ar_signal
  %consume_signal = "pld.tensor_window"(%consume_buf) : (!pld.ptr) -> !ar_signal
  %signal = "pld.tensor_window"(%signal_buf) : (!pld.ptr) -> !signal
  %send_counts = "pld.tensor_window"(%send_counts_buf) : (!pld.ptr) -> !send_counts
  %recv_counts = "pld.tensor_window"(%recv_counts_buf) : (!pld.ptr) -> !recv_counts
  scf.for %r = %c0 to %devices step %c1 {
    "pld.dispatch"(%r) ({
      func.call @pipeline(%send, %recv, %send_flat, %recv_flat, %stage_signal, %consume_signal, %signal, %send_counts, %recv_counts)
          : (!rows, !rows, !flat, !flat, !ar_signal, !ar_signal, !signal, !send_counts, !recv_counts) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}
