// An all_to_all_v of 4 ranks inside an InCore kernel: every rank may send
// each peer up to 2 rows of 8 f32 (the [8, 8] target has a slot of
// 8 / 4 = 2 rows per sender); send_counts[d] rows go to rank d, and
// recv_counts[s] tells how many rows arrived from rank s.
//
//   pld-run examples/all_to_all_v.mlir --ranks 4 --input send_counts=rank --check
//
// (`rank` fills every count with the sender's rank, clamped to the slot of
// 2 rows by the collective.)

!rows = tensor<8x8xf32>
!target = tensor<8x8xf32, #pld.dist>
!signal = tensor<4x1xi32, #pld.dist>
!send = tensor<4xi32>
!recv = tensor<4x1xi32, #pld.dist>

func.func @all_to_all_v(%input: !rows, %target: !target, %signal: !signal, %send_counts: !send, %recv_counts: !recv) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_all_to_all_v"(%input, %target, %signal, %send_counts, %recv_counts) : (!rows, !target, !signal, !send, !recv) -> !target
  return
}
