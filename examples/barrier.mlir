// A barrier of 4 ranks inside an InCore kernel: every rank notifies every
// peer's row of the [4, 1] i32 signal (one row per rank) and waits for its
// own rows to be notified.
//
//   pld-run examples/barrier.mlir --ranks 4 --stats
//
// A barrier has no numeric result; pld-run checks that every rank got
// through it and that no credit is left in the signal.

!signal = tensor<4x1xi32, #pld.dist>

func.func @barrier(%signal: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %after = "pld.tensor_barrier"(%signal) : (!signal) -> !signal
  return
}
