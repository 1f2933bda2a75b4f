// A broadcast inside an InCore kernel, for 4 ranks: rank 1 (the root)
// sends its 2 x 64 floats to every rank; the others' data is replaced.
//
//   pld-run examples/broadcast.mlir --ranks 4 --check
//
// The signal has one row per rank; `root` must be one of them.

!data = tensor<2x64xf32, #pld.dist>
!signal = tensor<4x1xi32, #pld.dist>

func.func @broadcast(%data: !data, %signal: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %same = "pld.tensor_broadcast"(%data, %signal) {root = 1 : i64} : (!data, !signal) -> !data
  return
}
