// A reduce_scatter of 4 ranks inside an InCore kernel: the [4, 24] f32
// target has one row per rank, and afterwards row r of rank r holds the sum
// of every rank's row r (the other rows are left as they were).
//
//   pld-run examples/reduce_scatter.mlir --ranks 4 --check

!target = tensor<4x24xf32, #pld.dist>
!signal = tensor<4x1xi32, #pld.dist>

func.func @reduce_scatter(%target: !target, %signal: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_reduce_scatter"(%target, %signal) {op = #pld.reduce_op<"sum">} : (!target, !signal) -> !target
  return
}
