// pld-run on the CHIP rail: the shipped example's pipeline (stage kernel,
// all_to_all_v, consume kernel) runs as one CHIP orchestrator per device:
// one L3 -> L2 round trip each, every call checked against the golden. A
// run on more ranks than the signal has rows is refused before it starts,
// and an operand that is not contiguous when the program runs is refused
// before any rank starts the exchange.
//
// RUN: pld-run %S/../../../../examples/chip_all_to_all_v.mlir --ranks 2 --check --stats | FileCheck %s
// RUN: not pld-run %S/../../../../examples/chip_all_to_all_v.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=RANKS
// RUN: split-file %s %t
// RUN: not pld-run %t/strided.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=STRIDED

// CHECK: @main on 2 devices: 3 collective calls
// CHECK-NEXT: pld.tensor_allreduce in @stage {{.*}}: f32 x 128 (sum), {{.*}}: ok on 2 ranks
// CHECK-NEXT: pld.tensor_all_to_all_v at {{.*}}chip_all_to_all_v.mlir:39:15: f32 x 128, {{.*}}: ok on 2 ranks
// CHECK-NEXT: pld.tensor_allreduce in @consume {{.*}}: f32 x 128 (max), {{.*}}: ok on 2 ranks
// CHECK-NEXT: device  round trips
// CHECK-NEXT: {{^ +}}0            1
// CHECK-NEXT: {{^ +}}1            1

// RANKS: pld-run: error: {{.*}}chip_all_to_all_v.mlir:39:15: the signal of pld.tensor_all_to_all_v (signal) is [2, 4]; on 4 ranks it needs at least [4, 1]

// STRIDED: pld-run: error: {{.*}}strided.mlir:10:15: 'func.call' passes the tensor.extract_slice at {{.*}}strided.mlir:28:11 (offsets [0, 0], sizes [8, 16], strides [1, 1] of a [8, 32] tensor, which is not contiguous), as the input of @__builtin_all_to_all_v__fp32 (the CHIP rail's pld.tensor_all_to_all_v), whose operands must be contiguous (require_contiguous_operands); refused before any rank starts the exchange
// STRIDED-NOT: finished

//--- strided.mlir
!rows = tensor<8x16xf32, #pld.dist>
!signal = tensor<2x1xi32, #pld.dist>
!send_counts = tensor<2xi32, #pld.dist>
!recv_counts = tensor<2x1xi32, #pld.dist>
// The CHIP rail cannot see at compile time where a parameter's tensor
// comes from: the host passes a column slice of a wider window (and the
// window itself, which puts its buffer in the pipeline's comm domain).
func.func @pipeline(%wide: tensor<8x32xf32, #pld.dist>, %send: !rows, %recv: !rows, %signal: !signal, %send_counts: !send_counts, %recv_counts: !recv_counts)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %received = "pld.tensor_all_to_all_v"(%send, %recv, %signal, %send_counts, %recv_counts)
      : (!rows, !rows, !signal, !send_counts, !recv_counts) -> !rows
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %wide_bytes = arith.constant 1024 : i64
  %rows_bytes = arith.constant 512 : i64
  %small = arith.constant 8 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %devices = arith.index_cast %ws : i64 to index
  %wide_buf = "pld.tensor_alloc_window_buffer"(%wide_bytes) {name = "wide"} : (i64) -> !pld.ptr
  %recv_buf = "pld.tensor_alloc_window_buffer"(%rows_bytes) {name = "recv"} : (i64) -> !pld.ptr
  %signal_buf = "pld.tensor_alloc_window_buffer"(%small) {name = "signal"} : (i64) -> !pld.ptr
  %send_counts_buf = "pld.tensor_alloc_window_buffer"(%small) {name = "send_counts"} : (i64) -> !pld.ptr
  %recv_counts_buf = "pld.tensor_alloc_window_buffer"(%small) {name = "recv_counts"} : (i64) -> !pld.ptr
  %wide = "pld.tensor_window"(%wide_buf) : (!pld.ptr) -> tensor<8x32xf32, #pld.dist>
  %send = tensor.extract_slice %wide[0, 0] [8, 16] [1, 1] : tensor<8x32xf32, #pld.dist> to !rows
  %recv = "pld.tensor_window"(%recv_buf) : (!pld.ptr) -> !rows
  %signal = "pld.tensor_window"(%signal_buf) : (!pld.ptr) -> !signal
  %send_counts = "pld.tensor_window"(%send_counts_buf) : (!pld.ptr) -> !send_counts
  %recv_counts = "pld.tensor_window"(%recv_counts_buf) : (!pld.ptr) -> !recv_counts
  scf.for %r = %c0 to %devices step %c1 {
    "pld.dispatch"(%r) ({
      func.call @pipeline(%wide, %send, %recv, %signal, %send_counts, %recv_counts)
          : (tensor<8x32xf32, #pld.dist>, !rows, !rows, !signal, !send_counts, !recv_counts) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}
