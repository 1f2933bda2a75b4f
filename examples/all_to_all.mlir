// An all_to_all inside an InCore kernel, for 4 ranks: row p of every rank's
// input goes to rank p, which stores it as row (sender) of its target.
//
//   pld-run examples/all_to_all.mlir --ranks 4 --check

!input = tensor<4x96xf32>
!rows = tensor<4x96xf32, #pld.dist>
!signal = tensor<4x1xi32, #pld.dist>

func.func @all_to_all(%input: !input, %target: !rows, %signal: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %exchanged = "pld.tensor_all_to_all"(%input, %target, %signal) : (!input, !rows, !signal) -> !rows
  return
}
