// An allgather of 4 ranks inside an InCore kernel: each rank's local
// [1, 24] f32 input lands in row r (r its rank) of every rank's [4, 24]
// target.
//
//   pld-run examples/allgather.mlir --ranks 4 --check

!input = tensor<1x24xf32>
!target = tensor<4x24xf32, #pld.dist>
!signal = tensor<4x1xi32, #pld.dist>

func.func @allgather(%input: !input, %target: !target, %signal: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allgather"(%input, %target, %signal) : (!input, !target, !signal) -> !target
  return
}
