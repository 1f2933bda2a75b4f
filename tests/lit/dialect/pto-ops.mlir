// Every op of the PTO subset pld emits, as the IRDL definition spells it.
// Checks the printed form parses back to the same text and that stock
// mlir-opt accepts the file with only pto.irdl.mlir.
//
// RUN: pld-opt %s -o %t.1.mlir
// RUN: pld-opt %t.1.mlir -o %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s --input-file=%t.1.mlir
// RUN: mlir-opt --irdl-file=%pto_irdl %s -o /dev/null
// One file loads both dialects:
// RUN: mlir-opt --irdl-file=%both_irdl %s -o /dev/null

!tile = !pto.tile_buf<"vec", tensor<1x256xf32>, {valid = array<i64: 1, -1>}>
!view = !pto.tensor_view<tensor<?x?xf32>>
!part = !pto.partition_tensor_view<tensor<1x256xf32>>
!sigpart = !pto.partition_tensor_view<tensor<1x1xi32>>

// CHECK-LABEL: func.func @vector_kernel
// CHECK-SAME: pto.kernel_kind = #pto.kernel_kind<"vector">
func.func @vector_kernel(%ctx: !pto.ptr<i64>, %data: !pto.ptr<f32>, %sig: !pto.ptr<i32>, %n: index)
    attributes {pto.kernel_kind = #pto.kernel_kind<"vector">, pto.entry} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  %addr = arith.constant 0 : i64
  %one = arith.constant 1 : i32
  // CHECK: "pto.load_scalar"(%{{.*}}, %{{.*}}) : (!pto.ptr<i64>, index) -> i64
  %pair = "pto.load_scalar"(%ctx, %c2) : (!pto.ptr<i64>, index) -> i64
  // CHECK: "pto.store_scalar"
  "pto.store_scalar"(%one, %sig, %c0) : (i32, !pto.ptr<i32>, index) -> ()
  // CHECK: "pto.addptr"(%{{.*}}, %{{.*}}) : (!pto.ptr<f32>, index) -> !pto.ptr<f32>
  %peer = "pto.addptr"(%data, %c256) : (!pto.ptr<f32>, index) -> !pto.ptr<f32>
  // CHECK: "pto.make_tensor_view"({{.*}}) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xf32>>
  %view = "pto.make_tensor_view"(%peer, %c1, %n, %n, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !view
  // CHECK: "pto.partition_view"
  %part = "pto.partition_view"(%view, %c0, %c0, %c1, %c256) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!view, index, index, index, index) -> !part
  // CHECK: "pto.alloc_tile"({{.*}}) {operandSegmentSizes = array<i32: 1, 0, 1>} : (i64, index) -> !pto.tile_buf<"vec", tensor<1x256xf32>, {valid = array<i64: 1, -1>}>
  %t = "pto.alloc_tile"(%addr, %n) {operandSegmentSizes = array<i32: 1, 0, 1>} : (i64, index) -> !tile
  %u = "pto.alloc_tile"(%addr, %n) {operandSegmentSizes = array<i32: 1, 0, 1>} : (i64, index) -> !tile
  // CHECK: "pto.set_validshape"
  "pto.set_validshape"(%t, %c1, %n) : (!tile, index, index) -> ()
  // CHECK: "pto.get_validshape"
  %r, %c = "pto.get_validshape"(%t) : (!tile) -> (index, index)
  // CHECK: "pto.tload"({{.*}}) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}
  "pto.tload"(%part, %t) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>} : (!part, !tile) -> ()
  // CHECK: "pto.tadd"
  "pto.tadd"(%t, %u, %t) : (!tile, !tile, !tile) -> ()
  // CHECK: "pto.tmax"
  "pto.tmax"(%t, %u, %t) : (!tile, !tile, !tile) -> ()
  // CHECK: "pto.tmin"
  "pto.tmin"(%t, %u, %t) : (!tile, !tile, !tile) -> ()
  // CHECK: "pto.tmul"
  "pto.tmul"(%t, %u, %t) : (!tile, !tile, !tile) -> ()
  // CHECK: "pto.tfillpad"
  "pto.tfillpad"(%t, %u) : (!tile, !tile) -> ()
  // CHECK: "pto.tfillpad_inplace"
  "pto.tfillpad_inplace"(%t, %t) : (!tile, !tile) -> ()
  // CHECK: "pto.tstore"({{.*}}) {atomicType = #pto.atomic_type<"atomic_add">, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
  "pto.tstore"(%t, %part) {atomicType = #pto.atomic_type<"atomic_add">, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (!tile, !part) -> ()
  // CHECK: "pto.barrier"() {pipe = #pto.pipe<"PIPE_ALL">}
  "pto.barrier"() {pipe = #pto.pipe<"PIPE_ALL">} : () -> ()
  // CHECK: "pto.fence_barrier_all"() {scope = #pto.fence_scope<"gm">}
  "pto.fence_barrier_all"() {scope = #pto.fence_scope<"gm">} : () -> ()
  // CHECK: "pto.cmo_cacheinvalid"(%{{.*}}) {line = #pto.cache_line<"single_cache_line">}
  "pto.cmo_cacheinvalid"(%part) {line = #pto.cache_line<"single_cache_line">} : (!part) -> ()
  // CHECK: "pto.cmo_cacheinvalid"() {line = #pto.cache_line<"all">, space = #pto.address_space<"gm">}
  "pto.cmo_cacheinvalid"() {line = #pto.cache_line<"all">, space = #pto.address_space<"gm">} : () -> ()
  %sview = "pto.make_tensor_view"(%sig, %c1, %c1, %c1, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xi32>>
  %spart = "pto.partition_view"(%sview, %c0, %c0, %c1, %c1) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xi32>>, index, index, index, index) -> !sigpart
  // CHECK: "pto.comm_tnotify"(%{{.*}}, %{{.*}}) {notifyOp = #pto.notify_op<"atomic_add">}
  "pto.comm_tnotify"(%spart, %one) {notifyOp = #pto.notify_op<"atomic_add">} : (!sigpart, i32) -> ()
  // CHECK: "pto.comm_twait"(%{{.*}}, %{{.*}}) {cmp = #pto.wait_cmp<"ge">}
  "pto.comm_twait"(%spart, %one) {cmp = #pto.wait_cmp<"ge">} : (!sigpart, i32) -> ()
  // CHECK: "pto.comm_ttest"({{.*}}) {cmp = #pto.wait_cmp<"eq">} : (!pto.partition_tensor_view<tensor<1x1xi32>>, i32) -> i1
  %ok = "pto.comm_ttest"(%spart, %one) {cmp = #pto.wait_cmp<"eq">} : (!sigpart, i32) -> i1
  // CHECK: "pto.comm_tput"({{.*}}) {atomicType = #pto.atomic_type<"atomic_none">}
  "pto.comm_tput"(%part, %part, %t) {atomicType = #pto.atomic_type<"atomic_none">} : (!part, !part, !tile) -> ()
  // CHECK: "pto.comm_tget"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (
  "pto.comm_tget"(%part, %part, %t, %u) : (!part, !part, !tile, !tile) -> ()
  // The asynchronous DMA ops: a URMA session over the CommContext's
  // workspace (slot 0), a put and a get on peer 1's queue, a wait and a test.
  // CHECK: "pto.comm_build_async_session"(%{{.*}}) {engine = #pto.dma_engine<"urma">, operandSegmentSizes = array<i32: 0, 1>} : (i64) -> !pto.async_session
  %ws = "pto.load_scalar"(%ctx, %c0) : (!pto.ptr<i64>, index) -> i64
  %session = "pto.comm_build_async_session"(%ws) {engine = #pto.dma_engine<"urma">, operandSegmentSizes = array<i32: 0, 1>} : (i64) -> !pto.async_session
  // CHECK: "pto.comm_build_async_session"(%{{.*}}, %{{.*}}) {engine = #pto.dma_engine<"sdma">, operandSegmentSizes = array<i32: 1, 1>} : (!pto.tile_buf<"vec", tensor<1x256xf32>, {valid = array<i64: 1, -1>}>, !pto.ptr<i64>) -> !pto.async_session
  %sdma = "pto.comm_build_async_session"(%t, %ctx) {engine = #pto.dma_engine<"sdma">, operandSegmentSizes = array<i32: 1, 1>} : (!tile, !pto.ptr<i64>) -> !pto.async_session
  // CHECK: "pto.comm_tput_async"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (!pto.partition_tensor_view<tensor<1x256xf32>>, !pto.partition_tensor_view<tensor<1x256xf32>>, !pto.async_session, i32) -> !pto.async_event
  %put = "pto.comm_tput_async"(%part, %part, %session, %one) {operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (!part, !part, !pto.async_session, i32) -> !pto.async_event
  // CHECK: "pto.comm_tget_async"(%{{.*}}, %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (!pto.partition_tensor_view<tensor<1x256xf32>>, !pto.partition_tensor_view<tensor<1x256xf32>>, !pto.async_session) -> !pto.async_event
  %get = "pto.comm_tget_async"(%part, %part, %sdma) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (!part, !part, !pto.async_session) -> !pto.async_event
  // CHECK: "pto.comm_wait_async_event"(%{{.*}}, %{{.*}}) : (!pto.async_event, !pto.async_session) -> i1
  %waited = "pto.comm_wait_async_event"(%put, %session) : (!pto.async_event, !pto.async_session) -> i1
  // CHECK: "pto.comm_test_async_event"(%{{.*}}, %{{.*}}) : (!pto.async_event, !pto.async_session) -> i1
  %tested = "pto.comm_test_async_event"(%get, %sdma) : (!pto.async_event, !pto.async_session) -> i1
  // CHECK: "pto.get_block_idx"() : () -> i64
  %b = "pto.get_block_idx"() : () -> i64
  // CHECK: "pto.get_block_num"() : () -> i64
  %nb = "pto.get_block_num"() : () -> i64
  return
}
