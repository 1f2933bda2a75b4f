// An all_to_all of 4 ranks inside an InCore kernel: row d of rank s's local
// [4, 24] f32 input lands in row s of rank d's target.
//
//   pld-run examples/all_to_all.mlir --ranks 4 --check

!input = tensor<4x24xf32>
!target = tensor<4x24xf32, #pld.dist>
!signal = tensor<4x1xi32, #pld.dist>

func.func @all_to_all(%input: !input, %target: !target, %signal: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_all_to_all"(%input, %target, %signal) : (!input, !target, !signal) -> !target
  return
}
