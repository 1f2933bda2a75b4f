// A reduce to rank 1 on 4 ranks inside an InCore kernel: afterwards rank 1's
// [3, 1000] f32 target holds the element-wise maximum of every rank's; the
// other ranks' targets are unchanged. The signal has one row per rank.
//
//   pld-run examples/reduce.mlir --ranks 4 --check

!target = tensor<3x1000xf32, #pld.dist>
!signal = tensor<4x1xi32, #pld.dist>

func.func @reduce(%target: !target, %signal: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_reduce"(%target, %signal) {op = #pld.reduce_op<"max">, root = 1 : i64} : (!target, !signal) -> !target
  return
}
