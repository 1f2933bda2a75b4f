// A barrier inside an InCore kernel, for 4 ranks: every rank notifies one
// cell of every peer's signal (one row per rank) and waits until all its
// own cells have a credit, then takes them back, so the signal ends at zero.
//
//   pld-run examples/barrier.mlir --ranks 4 --stats
//
// A barrier moves no data: --check says so; --stats shows each rank's
// notifies and waits.

!signal = tensor<4x1xi32, #pld.dist>

func.func @barrier(%signal: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %done = "pld.tensor_barrier"(%signal) : (!signal) -> !signal
  return
}
