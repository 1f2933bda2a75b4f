// A broadcast from rank 2 to 4 ranks inside an InCore kernel: afterwards
// every rank's [2, 40] f32 target holds rank 2's. The signal has one row per
// rank.
//
//   pld-run examples/broadcast.mlir --ranks 4 --check

!target = tensor<2x40xf32, #pld.dist>
!signal = tensor<4x1xi32, #pld.dist>

func.func @broadcast(%target: !target, %signal: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_broadcast"(%target, %signal) {root = 2 : i64} : (!target, !signal) -> !target
  return
}
