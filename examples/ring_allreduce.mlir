// A ring allreduce of 4097 FP32 elements inside an InCore kernel, for 4
// ranks: the signal of the ring schedule is [2*(NR-1), NR] = [6, 4].
//
//   pld-run examples/ring_allreduce.mlir --ranks 4 --check --stats
//
// pld-run lowers it with pld-to-pto, compiles it for the simulator, gives
// every rank a window holding the data (a ramp that depends on rank and
// index) and the zeroed signal, runs the kernel on 4 threads, and compares
// every rank's result with the sum computed in Rust.

!data = tensor<1x4097xf32, #pld.dist>
!signal = tensor<6x4xi32, #pld.dist>

func.func @ring_allreduce(%data: !data, %signal: !signal)
    attributes {pld.kind = #pld.func_kind<"incore">} {
  %sum = "pld.tensor_allreduce"(%data, %signal) {op = #pld.reduce_op<"sum">, mode = "ring"}
      : (!data, !signal) -> !data
  return
}
