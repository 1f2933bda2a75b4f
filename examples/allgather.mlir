// An allgather inside an InCore kernel, for 4 ranks: every rank contributes
// one row of 96 floats (a plain tensor) and receives every rank's row, in
// rank order, in its window (one row per rank).
//
//   pld-run examples/allgather.mlir --ranks 4 --check

!row = tensor<1x96xf32>
!rows = tensor<4x96xf32, #pld.dist>
!signal = tensor<4x1xi32, #pld.dist>

func.func @allgather(%mine: !row, %all: !rows, %signal: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %gathered = "pld.tensor_allgather"(%mine, %all, %signal) : (!row, !rows, !signal) -> !rows
  return
}
