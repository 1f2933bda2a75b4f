// A reduce_scatter inside an InCore kernel, for 4 ranks: the target has one
// row per rank; afterwards rank r's row r holds the sum over all ranks of
// their row r.
//
//   pld-run examples/reduce_scatter.mlir --ranks 4 --check

!rows = tensor<4x96xf32, #pld.dist>
!signal = tensor<4x1xi32, #pld.dist>

func.func @reduce_scatter(%rows: !rows, %signal: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %mine = "pld.tensor_reduce_scatter"(%rows, %signal) {op = #pld.reduce_op<"sum">} : (!rows, !signal) -> !rows
  return
}
