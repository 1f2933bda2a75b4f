// pld-translate --emit=pto spells the asynchronous DMA ops in PTOAS's
// custom form: `pto.comm.<op>(operands : types) {engine = ...} -> result`
// (the form PTOAS gives pto.build_async_session, pto.tput_async,
// pto.wait_async_event and pto.test_async_event, under the pto.comm.
// names of its later versions), with the engine as the enum attribute
// `#pto<dma_engine urma>`, the optional scratch tile and peer in operand
// order, and the handle types `!pto.async_session`, `!pto.async_event`.
//
// RUN: pld-translate --emit=pto %s | FileCheck %s --strict-whitespace

!tile = !pto.tile_buf<"vec", tensor<1x256xi8>, {valid = array<i64: 1, 256>}>
!row = !pto.partition_tensor_view<tensor<1x64xf32>>
func.func @async(%ctx: !pto.ptr<i64>, %ws: !pto.ptr<i8>, %t: !tile, %a: !row, %b: !row, %peer: i32)
    attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  %c0 = arith.constant 0 : index
  %slot = "pto.load_scalar"(%ctx, %c0) : (!pto.ptr<i64>, index) -> i64
  // CHECK: %1 = pto.comm.build_async_session(%0 : i64) {engine = #pto<dma_engine urma>} -> !pto.async_session
  %u = "pto.comm_build_async_session"(%slot) {engine = #pto.dma_engine<"urma">, operandSegmentSizes = array<i32: 0, 1>} : (i64) -> !pto.async_session
  // CHECK-NEXT: %2 = pto.comm.build_async_session(%arg2, %arg1 : !pto.tile_buf<vec, 1x256xi8>, !pto.ptr<i8>) {engine = #pto<dma_engine sdma>} -> !pto.async_session
  %s = "pto.comm_build_async_session"(%t, %ws) {engine = #pto.dma_engine<"sdma">, operandSegmentSizes = array<i32: 1, 1>} : (!tile, !pto.ptr<i8>) -> !pto.async_session
  // CHECK-NEXT: %3 = pto.comm.tput_async(%arg3, %arg4, %1, %arg5 : !pto.partition_tensor_view<1x64xf32>, !pto.partition_tensor_view<1x64xf32>, !pto.async_session, i32) -> !pto.async_event
  %e = "pto.comm_tput_async"(%a, %b, %u, %peer) {operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (!row, !row, !pto.async_session, i32) -> !pto.async_event
  // CHECK-NEXT: %4 = pto.comm.tget_async(%arg4, %arg3, %2 : !pto.partition_tensor_view<1x64xf32>, !pto.partition_tensor_view<1x64xf32>, !pto.async_session) -> !pto.async_event
  %f = "pto.comm_tget_async"(%b, %a, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (!row, !row, !pto.async_session) -> !pto.async_event
  // CHECK-NEXT: %5 = pto.comm.wait_async_event(%3, %1 : !pto.async_event, !pto.async_session) -> i1
  %ok = "pto.comm_wait_async_event"(%e, %u) : (!pto.async_event, !pto.async_session) -> i1
  // CHECK-NEXT: %6 = pto.comm.test_async_event(%4, %2 : !pto.async_event, !pto.async_session) -> i1
  %now = "pto.comm_test_async_event"(%f, %s) : (!pto.async_event, !pto.async_session) -> i1
  return
}
