// The PTO asynchronous DMA ops as pld-verify checks them beyond IRDL
// (docs/dialect.md 6, rules P2-P4), so that pld-translate never prints an
// op the engines cannot run: an SDMA session stages through a UB tile and a
// URMA session does not (P2); the DMA engines move flat contiguous 1-D
// spans of one element type, the destination at least as long as the
// source (P3, the rule PTOAS's verifier states as "expects dst to be a
// static flat contiguous logical 1D" view); a transfer on a URMA session
// names the peer whose queue it goes on (P4, PER_PEER).
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics

!tile = !pto.tile_buf<"vec", tensor<1x256xi8>, {valid = array<i64: 1, 256>}>
!row = !pto.partition_tensor_view<tensor<1x64xf32>>
func.func @fine(%ws: i64, %p: !pto.ptr<i8>, %t: !tile, %a: !row, %b: !row, %peer: i32) {
  %u = "pto.comm_build_async_session"(%ws) {engine = #pto.dma_engine<"urma">, operandSegmentSizes = array<i32: 0, 1>} : (i64) -> !pto.async_session
  %s = "pto.comm_build_async_session"(%t, %p) {engine = #pto.dma_engine<"sdma">, operandSegmentSizes = array<i32: 1, 1>} : (!tile, !pto.ptr<i8>) -> !pto.async_session
  %e = "pto.comm_tput_async"(%a, %b, %u, %peer) {operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (!row, !row, !pto.async_session, i32) -> !pto.async_event
  %f = "pto.comm_tget_async"(%a, %b, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (!row, !row, !pto.async_session) -> !pto.async_event
  %ok = "pto.comm_wait_async_event"(%e, %u) : (!pto.async_event, !pto.async_session) -> i1
  %now = "pto.comm_test_async_event"(%f, %s) : (!pto.async_event, !pto.async_session) -> i1
  return
}

// -----

func.func @sdma_without_scratch(%p: !pto.ptr<i8>) {
  // expected-error@+1 {{'pto.comm_build_async_session' op engine sdma needs a scratch operand (a UB tile_buf of loc vec)}}
  %s = "pto.comm_build_async_session"(%p) {engine = #pto.dma_engine<"sdma">, operandSegmentSizes = array<i32: 0, 1>} : (!pto.ptr<i8>) -> !pto.async_session
  return
}

// -----

!tile = !pto.tile_buf<"vec", tensor<1x256xi8>, {valid = array<i64: 1, 256>}>
func.func @urma_with_scratch(%p: !pto.ptr<i8>, %t: !tile) {
  // expected-error@+1 {{'pto.comm_build_async_session' op engine urma takes no scratch operand (only SDMA stages through UB)}}
  %s = "pto.comm_build_async_session"(%t, %p) {engine = #pto.dma_engine<"urma">, operandSegmentSizes = array<i32: 1, 1>} : (!tile, !pto.ptr<i8>) -> !pto.async_session
  return
}

// -----

!mat = !pto.tile_buf<"mat", tensor<1x256xi8>, {valid = array<i64: 1, 256>}>
func.func @scratch_not_in_ub(%p: !pto.ptr<i8>, %t: !mat) {
  // expected-error@+1 {{'pto.comm_build_async_session' op scratch must be a tile_buf of loc vec (UB), got}}
  %s = "pto.comm_build_async_session"(%t, %p) {engine = #pto.dma_engine<"sdma">, operandSegmentSizes = array<i32: 1, 1>} : (!mat, !pto.ptr<i8>) -> !pto.async_session
  return
}

// -----

!rows = !pto.partition_tensor_view<tensor<4x32xf32>>
func.func @not_flat(%ws: i64, %a: !rows, %peer: i32) {
  %u = "pto.comm_build_async_session"(%ws) {engine = #pto.dma_engine<"urma">, operandSegmentSizes = array<i32: 0, 1>} : (i64) -> !pto.async_session
  // expected-error@+2 {{'pto.comm_tput_async' op dst must be a flat contiguous 1-D view (every dimension but the last 1), got !pto.partition_tensor_view<tensor<4x32xf32>>}}
  // expected-error@+1 {{'pto.comm_tput_async' op src must be a flat contiguous 1-D view}}
  %e = "pto.comm_tput_async"(%a, %a, %u, %peer) {operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (!rows, !rows, !pto.async_session, i32) -> !pto.async_event
  return
}

// -----

func.func @mismatched(%ws: i64, %a: !pto.partition_tensor_view<tensor<1x16xf32>>, %b: !pto.partition_tensor_view<tensor<1x64xi32>>, %peer: i32) {
  %u = "pto.comm_build_async_session"(%ws) {engine = #pto.dma_engine<"urma">, operandSegmentSizes = array<i32: 0, 1>} : (i64) -> !pto.async_session
  // expected-error@+2 {{'pto.comm_tget_async' op dst element type f32 must equal the src element type i32}}
  // expected-error@+1 {{'pto.comm_tget_async' op dst has 16 elements, fewer than the 64 of src}}
  %e = "pto.comm_tget_async"(%a, %b, %u, %peer) {operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (!pto.partition_tensor_view<tensor<1x16xf32>>, !pto.partition_tensor_view<tensor<1x64xi32>>, !pto.async_session, i32) -> !pto.async_event
  return
}

// -----

!row = !pto.partition_tensor_view<tensor<1x64xf32>>
func.func @urma_without_peer(%ws: i64, %a: !row) {
  %u = "pto.comm_build_async_session"(%ws) {engine = #pto.dma_engine<"urma">, operandSegmentSizes = array<i32: 0, 1>} : (i64) -> !pto.async_session
  // expected-error@+1 {{'pto.comm_tput_async' op a transfer on a URMA session needs a peer operand (its PER_PEER queue)}}
  %e = "pto.comm_tput_async"(%a, %a, %u) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (!row, !row, !pto.async_session) -> !pto.async_event
  return
}

// -----

!row = !pto.partition_tensor_view<tensor<1x64xf32>>
func.func @wrong_engine(%ws: i64) {
  // expected-error@+1 {{}}
  %u = "pto.comm_build_async_session"(%ws) {engine = #pto.dma_engine<"rdma">, operandSegmentSizes = array<i32: 0, 1>} : (i64) -> !pto.async_session
  return
}

// -----

// P4 follows the session through scf.if and scf.for (before, only a
// session straight from its builder was checked, and the run failed on
// "peer -1").
!row = !pto.partition_tensor_view<tensor<1x64xf32>>
func.func @urma_through_if(%ws: i64, %a: !row, %c: i1) {
  %u = "pto.comm_build_async_session"(%ws) {engine = #pto.dma_engine<"urma">, operandSegmentSizes = array<i32: 0, 1>} : (i64) -> !pto.async_session
  %s = scf.if %c -> (!pto.async_session) {
    scf.yield %u : !pto.async_session
  } else {
    scf.yield %u : !pto.async_session
  }
  // expected-error@+1 {{'pto.comm_tput_async' op a transfer on a URMA session needs a peer operand}}
  %e = "pto.comm_tput_async"(%a, %a, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (!row, !row, !pto.async_session) -> !pto.async_event
  return
}

// -----

!row = !pto.partition_tensor_view<tensor<1x64xf32>>
func.func @urma_through_for(%ws: i64, %a: !row, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %u = "pto.comm_build_async_session"(%ws) {engine = #pto.dma_engine<"urma">, operandSegmentSizes = array<i32: 0, 1>} : (i64) -> !pto.async_session
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%x = %u) -> (!pto.async_session) {
    // expected-error@+1 {{'pto.comm_tput_async' op a transfer on a URMA session needs a peer operand}}
    %e = "pto.comm_tput_async"(%a, %a, %x) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (!row, !row, !pto.async_session) -> !pto.async_event
    scf.yield %x : !pto.async_session
  }
  // expected-error@+1 {{'pto.comm_tput_async' op a transfer on a URMA session needs a peer operand}}
  %f = "pto.comm_tput_async"(%a, %a, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (!row, !row, !pto.async_session) -> !pto.async_event
  return
}

// -----

!row = !pto.partition_tensor_view<tensor<1x64xf32>>
!tile = !pto.tile_buf<"vec", tensor<1x256xi8>, {valid = array<i64: 1, 256>}>
func.func @urma_through_select(%ws: i64, %p: !pto.ptr<i8>, %t: !tile, %a: !row, %c: i1) {
  %u = "pto.comm_build_async_session"(%ws) {engine = #pto.dma_engine<"urma">, operandSegmentSizes = array<i32: 0, 1>} : (i64) -> !pto.async_session
  %d = "pto.comm_build_async_session"(%t, %p) {engine = #pto.dma_engine<"sdma">, operandSegmentSizes = array<i32: 1, 1>} : (!tile, !pto.ptr<i8>) -> !pto.async_session
  %s = arith.select %c, %u, %d : !pto.async_session
  // expected-error@+1 {{'pto.comm_tput_async' op a transfer on a URMA session needs a peer operand}}
  %e = "pto.comm_tput_async"(%a, %a, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (!row, !row, !pto.async_session) -> !pto.async_event
  return
}

// -----

// URMA exists on A5 only: a module that declares a2a3 cannot build a URMA
// session (a module without pld.target is taken as written).
module attributes {pld.target = "a2a3"} {
  func.func @urma_on_a2a3(%ws: i64) {
    // expected-error@+1 {{'pto.comm_build_async_session' op engine urma exists on A5 only (NPU_ARCH 3510), and this module declares pld.target = "a2a3": use engine sdma, or pld.target = "a5"}}
    %u = "pto.comm_build_async_session"(%ws) {engine = #pto.dma_engine<"urma">, operandSegmentSizes = array<i32: 0, 1>} : (i64) -> !pto.async_session
    return
  }
}
