module {
  func.func @xchg(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<i32>, %arg2: !pto.ptr<f32>, %arg3: !pto.ptr<f32>, %arg4: !pto.ptr<i64>, %arg5: !pto.ptr<i64>) attributes {pld.kind = #pld.func_kind<"incore">, pld.signature = (tensor<2x64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<1x64xf32>, tensor<1x64xf32>, !pld.ctx, !pld.ctx) -> (), pto.kernel_kind = #pto.kernel_kind<"vector">} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %cN = arith.constant 64 : index
    %cP = arith.constant 2 : index
    %c4_i64 = arith.constant 4 : i64
    %one = arith.constant 1 : i32
    %minus = arith.constant -1 : i32
    %pair = "pto.load_scalar"(%arg4, %c2) : (!pto.ptr<i64>, index) -> i64
    %me32 = arith.trunci %pair : i64 to i32
    %me = arith.index_cast %me32 : i32 to index
    %mep = arith.addi %me, %c1 : index
    %next = arith.remui %mep, %cP : index
    %cPm1 = arith.constant 1 : index
    %mepm = arith.addi %me, %cPm1 : index
    %prev = arith.remui %mepm, %cP : index
    %next32 = arith.index_cast %next : index to i32
    %prev32 = arith.index_cast %prev : index to i32
    %ws = "pto.load_scalar"(%arg4, %c0) : (!pto.ptr<i64>, index) -> i64
    %v1 = "pto.make_tensor_view"(%arg2, %c1, %cN, %cN, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xf32>>
    %v2 = "pto.partition_view"(%v1, %c0, %c0, %c1, %cN) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x64xf32>>
    %v3 = "pto.make_tensor_view"(%arg0, %c2, %cN, %cN, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xf32>>
    %v4 = "pto.partition_view"(%v3, %c0, %c0, %c1, %cN) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x64xf32>>
    %t5 = "pto.alloc_tile"(%c1, %cN) {operandSegmentSizes = array<i32: 0, 1, 1>} : (index, index) -> !pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>
    "pto.tload"(%v2, %t5) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>} : (!pto.partition_tensor_view<tensor<1x64xf32>>, !pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>) -> ()
    "pto.tstore"(%t5, %v4) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (!pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>, !pto.partition_tensor_view<tensor<1x64xf32>>) -> ()
    "pto.barrier"() {pipe = #pto.pipe<"PIPE_ALL">} : () -> ()
    "pto.fence_barrier_all"() {scope = #pto.fence_scope<"gm">} : () -> ()
    %v6 = "pto.make_tensor_view"(%arg3, %c1, %cN, %cN, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xf32>>
    %v7 = "pto.partition_view"(%v6, %c0, %c0, %c1, %cN) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x64xf32>>
    %v8 = "pto.partition_view"(%v3, %c1, %c0, %c1, %cN) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x64xf32>>
    %s9 = "pto.comm_build_async_session"(%ws) {engine = #pto.dma_engine<"urma">, operandSegmentSizes = array<i32: 0, 1>} : (i64) -> !pto.async_session
    %v10 = arith.addi %me, %c4 : index
    %v11 = "pto.load_scalar"(%arg4, %v10) : (!pto.ptr<i64>, index) -> i64
    %v12 = arith.addi %next, %c4 : index
    %v13 = "pto.load_scalar"(%arg4, %v12) : (!pto.ptr<i64>, index) -> i64
    %v14 = arith.subi %v13, %v11 : i64
    %v15 = arith.divsi %v14, %c4_i64 : i64
    %v16 = arith.index_cast %v15 : i64 to index
    %v17 = "pto.addptr"(%arg0, %v16) : (!pto.ptr<f32>, index) -> !pto.ptr<f32>
    %v18 = "pto.make_tensor_view"(%v17, %c2, %cN, %cN, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xf32>>
    %v19 = "pto.partition_view"(%v18, %c1, %c0, %c1, %cN) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x64xf32>>
    %e20 = "pto.comm_tput_async"(%v19, %v4, %s9, %next32) {operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (!pto.partition_tensor_view<tensor<1x64xf32>>, !pto.partition_tensor_view<tensor<1x64xf32>>, !pto.async_session, i32) -> !pto.async_event
    %t22 = "pto.alloc_tile"(%c1, %cN) {operandSegmentSizes = array<i32: 0, 1, 1>} : (index, index) -> !pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>
    %s21 = "pto.comm_build_async_session"(%t22, %ws) {engine = #pto.dma_engine<"sdma">, operandSegmentSizes = array<i32: 1, 1>} : (!pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>, i64) -> !pto.async_session
    %ok23 = "pto.comm_wait_async_event"(%e20, %s21) : (!pto.async_event, !pto.async_session) -> i1
    %v24 = arith.addi %me, %c4 : index
    %v25 = "pto.load_scalar"(%arg5, %v24) : (!pto.ptr<i64>, index) -> i64
    %v26 = arith.addi %next, %c4 : index
    %v27 = "pto.load_scalar"(%arg5, %v26) : (!pto.ptr<i64>, index) -> i64
    %v28 = arith.subi %v27, %v25 : i64
    %v29 = arith.divsi %v28, %c4_i64 : i64
    %v30 = arith.index_cast %v29 : i64 to index
    %v31 = "pto.addptr"(%arg1, %v30) : (!pto.ptr<i32>, index) -> !pto.ptr<i32>
    %v32 = "pto.make_tensor_view"(%v31, %cP, %c1, %c1, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xi32>>
    %v33 = "pto.partition_view"(%v32, %me, %c0, %c1, %c1) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xi32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x1xi32>>
    "pto.barrier"() {pipe = #pto.pipe<"PIPE_ALL">} : () -> ()
    "pto.comm_tnotify"(%v33, %one) {notifyOp = #pto.notify_op<"atomic_add">} : (!pto.partition_tensor_view<tensor<1x1xi32>>, i32) -> ()
    %v34 = "pto.make_tensor_view"(%arg1, %cP, %c1, %c1, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xi32>>
    %v35 = "pto.partition_view"(%v34, %prev, %c0, %c1, %c1) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xi32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x1xi32>>
    "pto.comm_twait"(%v35, %one) {cmp = #pto.wait_cmp<"ge">} : (!pto.partition_tensor_view<tensor<1x1xi32>>, i32) -> ()
    %t36 = "pto.alloc_tile"(%c1, %cN) {operandSegmentSizes = array<i32: 0, 1, 1>} : (index, index) -> !pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>
    "pto.tload"(%v8, %t36) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>} : (!pto.partition_tensor_view<tensor<1x64xf32>>, !pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>) -> ()
    "pto.tstore"(%t36, %v7) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (!pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>, !pto.partition_tensor_view<tensor<1x64xf32>>) -> ()
    %v37 = "pto.make_tensor_view"(%arg1, %cP, %c1, %c1, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xi32>>
    %v38 = "pto.partition_view"(%v37, %prev, %c0, %c1, %c1) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xi32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x1xi32>>
    "pto.barrier"() {pipe = #pto.pipe<"PIPE_ALL">} : () -> ()
    "pto.comm_tnotify"(%v38, %minus) {notifyOp = #pto.notify_op<"atomic_add">} : (!pto.partition_tensor_view<tensor<1x1xi32>>, i32) -> ()
    return
  }
}
