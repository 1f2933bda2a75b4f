// The CHIP rail on A5: one CHIP orchestrator per device exchanges rows
// gathered through an index with pld.tensor_indexed_all_to_all_v, whose
// transport is A5's URMA (pld.target = "a5"; on a2a3 the verifier refuses
// it). pld-lower-l2-tensor-collectives (in pld-to-pto) turns it into a
// call of the synthesized builtin kernel
// @__builtin_indexed_all_to_all_v__fp32, launched on exactly core_num = 3
// AIV blocks: block b owns the URMA queues of peers b, b + 3, ... (one
// writer per queue), every block gathers its share of the self slot while
// its copies are in flight, then waits for their completions.
//
// Row k of the slot rank s fills in rank d's target is row
// index_s[d * 4 + k] of s's input, for k < clamp(send_counts_s[d], 0, 4);
// recv_counts_d[s] is that count.
//
//   pld-opt examples/chip_indexed_all_to_all_v.mlir --pass-pipeline='builtin.module(pld-chip-pipeline)'
//   pld-run examples/chip_indexed_all_to_all_v.mlir --ranks 2 --input send_counts=rank --check --stats
//   pld-run examples/chip_indexed_all_to_all_v.mlir --ranks 2 --input send_counts=rank --explore 50

// Up to 4 rows of 16 floats from each of the 2 ranks.
!rows = tensor<8x16xf32, #pld.dist>
// One row per peer, one column per signal lane (at least core_num = 3).
!signal = tensor<2x3xi32, #pld.dist>
!send_counts = tensor<2xi32, #pld.dist>
!recv_counts = tensor<2x1xi32, #pld.dist>
// The input row of each row of each destination's slot.
!index = tensor<8xi32, #pld.dist>

module attributes {pld.target = "a5"} {

func.func @exchange(%input: !rows, %target: !rows, %signal: !signal, %send_counts: !send_counts,
                    %recv_counts: !recv_counts, %index: !index)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %core_num = arith.constant 3 : index
  %received = "pld.tensor_indexed_all_to_all_v"(%input, %target, %signal, %send_counts, %recv_counts, %index, %core_num)
      : (!rows, !rows, !signal, !send_counts, !recv_counts, !index, index) -> !rows
  return
}

func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %row_bytes = arith.constant 512 : i64
  %signal_bytes = arith.constant 24 : i64
  %count_bytes = arith.constant 8 : i64
  %index_bytes = arith.constant 32 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %devices = arith.index_cast %ws : i64 to index
  %input_buf = "pld.tensor_alloc_window_buffer"(%row_bytes) {name = "input"} : (i64) -> !pld.ptr
  %target_buf = "pld.tensor_alloc_window_buffer"(%row_bytes) {name = "target"} : (i64) -> !pld.ptr
  %signal_buf = "pld.tensor_alloc_window_buffer"(%signal_bytes) {name = "signal"} : (i64) -> !pld.ptr
  %send_counts_buf = "pld.tensor_alloc_window_buffer"(%count_bytes) {name = "send_counts"} : (i64) -> !pld.ptr
  %recv_counts_buf = "pld.tensor_alloc_window_buffer"(%count_bytes) {name = "recv_counts"} : (i64) -> !pld.ptr
  %index_buf = "pld.tensor_alloc_window_buffer"(%index_bytes) {name = "index"} : (i64) -> !pld.ptr
  %input = "pld.tensor_window"(%input_buf) : (!pld.ptr) -> !rows
  %target = "pld.tensor_window"(%target_buf) : (!pld.ptr) -> !rows
  %signal = "pld.tensor_window"(%signal_buf) : (!pld.ptr) -> !signal
  %send_counts = "pld.tensor_window"(%send_counts_buf) : (!pld.ptr) -> !send_counts
  %recv_counts = "pld.tensor_window"(%recv_counts_buf) : (!pld.ptr) -> !recv_counts
  %index = "pld.tensor_window"(%index_buf) : (!pld.ptr) -> !index
  scf.for %r = %c0 to %devices step %c1 {
    "pld.dispatch"(%r) ({
      func.call @exchange(%input, %target, %signal, %send_counts, %recv_counts, %index)
          : (!rows, !rows, !signal, !send_counts, !recv_counts, !index) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}

}
