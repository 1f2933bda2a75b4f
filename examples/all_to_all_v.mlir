// An all_to_all_v inside an InCore kernel, for 4 ranks, with room for 3
// rows of 32 floats from each sender (the target has 4 * 3 rows). Rank r
// sends send_counts[p] rows to rank p (clamped to [0, 3]); the receiver
// finds them in its slot for r and the counts in recv_counts.
//
//   pld-run examples/all_to_all_v.mlir --ranks 4 --check
//   pld-run examples/all_to_all_v.mlir --ranks 4 --check --input send_counts=rank
//
// The second run sends r rows from every rank r (0, 1, 2, and 3 clamped to 3).

!rows = tensor<12x32xf32>
!slots = tensor<12x32xf32, #pld.dist>
!signal = tensor<4x1xi32, #pld.dist>
!send_counts = tensor<4xi32>
!recv_counts = tensor<4x1xi32, #pld.dist>

func.func @all_to_all_v(%input: !rows, %target: !slots, %signal: !signal, %send_counts: !send_counts, %recv_counts: !recv_counts)
    attributes {pld.kind = #pld.func_kind<"incore">} {
  %received = "pld.tensor_all_to_all_v"(%input, %target, %signal, %send_counts, %recv_counts)
      : (!rows, !slots, !signal, !send_counts, !recv_counts) -> !slots
  return
}
