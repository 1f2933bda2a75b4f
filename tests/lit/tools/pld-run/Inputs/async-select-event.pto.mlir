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
    %c32 = arith.constant 32 : index
    %v20 = arith.addi %me, %c4 : index
    %v21 = "pto.load_scalar"(%arg4, %v20) : (!pto.ptr<i64>, index) -> i64
    %v22 = arith.addi %next, %c4 : index
    %v23 = "pto.load_scalar"(%arg4, %v22) : (!pto.ptr<i64>, index) -> i64
    %v24 = arith.subi %v23, %v21 : i64
    %v25 = arith.divsi %v24, %c4_i64 : i64
    %v26 = arith.index_cast %v25 : i64 to index
    %v27 = "pto.addptr"(%arg0, %v26) : (!pto.ptr<f32>, index) -> !pto.ptr<f32>
    %v28 = "pto.make_tensor_view"(%v27, %c2, %cN, %cN, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xf32>>
    %v29 = "pto.partition_view"(%v28, %c1, %c0, %c1, %c32) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x32xf32>>
    %v30 = "pto.partition_view"(%v28, %c1, %c32, %c1, %c32) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x32xf32>>
    %v31 = "pto.partition_view"(%v3, %c0, %c0, %c1, %c32) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x32xf32>>
    %v32 = "pto.partition_view"(%v3, %c0, %c32, %c1, %c32) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x32xf32>>
    %e33 = "pto.comm_tput_async"(%v29, %v31, %s9, %next32) {operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (!pto.partition_tensor_view<tensor<1x32xf32>>, !pto.partition_tensor_view<tensor<1x32xf32>>, !pto.async_session, i32) -> !pto.async_event
    %e34 = "pto.comm_tput_async"(%v30, %v32, %s9, %next32) {operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (!pto.partition_tensor_view<tensor<1x32xf32>>, !pto.partition_tensor_view<tensor<1x32xf32>>, !pto.async_session, i32) -> !pto.async_event
    %isz = arith.cmpi eq, %me, %c0 : index
    %sel = arith.select %isz, %e34, %e34 : !pto.async_event
    %ok35 = "pto.comm_wait_async_event"(%sel, %s9) : (!pto.async_event, !pto.async_session) -> i1
    %v36 = arith.addi %me, %c4 : index
    %v37 = "pto.load_scalar"(%arg5, %v36) : (!pto.ptr<i64>, index) -> i64
    %v38 = arith.addi %next, %c4 : index
    %v39 = "pto.load_scalar"(%arg5, %v38) : (!pto.ptr<i64>, index) -> i64
    %v40 = arith.subi %v39, %v37 : i64
    %v41 = arith.divsi %v40, %c4_i64 : i64
    %v42 = arith.index_cast %v41 : i64 to index
    %v43 = "pto.addptr"(%arg1, %v42) : (!pto.ptr<i32>, index) -> !pto.ptr<i32>
    %v44 = "pto.make_tensor_view"(%v43, %cP, %c1, %c1, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xi32>>
    %v45 = "pto.partition_view"(%v44, %me, %c0, %c1, %c1) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xi32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x1xi32>>
    "pto.barrier"() {pipe = #pto.pipe<"PIPE_ALL">} : () -> ()
    "pto.comm_tnotify"(%v45, %one) {notifyOp = #pto.notify_op<"atomic_add">} : (!pto.partition_tensor_view<tensor<1x1xi32>>, i32) -> ()
    %v46 = "pto.make_tensor_view"(%arg1, %cP, %c1, %c1, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xi32>>
    %v47 = "pto.partition_view"(%v46, %prev, %c0, %c1, %c1) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xi32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x1xi32>>
    "pto.comm_twait"(%v47, %one) {cmp = #pto.wait_cmp<"ge">} : (!pto.partition_tensor_view<tensor<1x1xi32>>, i32) -> ()
    %t48 = "pto.alloc_tile"(%c1, %cN) {operandSegmentSizes = array<i32: 0, 1, 1>} : (index, index) -> !pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>
    "pto.tload"(%v8, %t48) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>} : (!pto.partition_tensor_view<tensor<1x64xf32>>, !pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>) -> ()
    "pto.tstore"(%t48, %v7) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (!pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>, !pto.partition_tensor_view<tensor<1x64xf32>>) -> ()
    %v49 = "pto.make_tensor_view"(%arg1, %cP, %c1, %c1, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xi32>>
    %v50 = "pto.partition_view"(%v49, %prev, %c0, %c1, %c1) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xi32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x1xi32>>
    "pto.barrier"() {pipe = #pto.pipe<"PIPE_ALL">} : () -> ()
    "pto.comm_tnotify"(%v50, %minus) {notifyOp = #pto.notify_op<"atomic_add">} : (!pto.partition_tensor_view<tensor<1x1xi32>>, i32) -> ()
    %ok51 = "pto.comm_wait_async_event"(%e33, %s9) : (!pto.async_event, !pto.async_session) -> i1
    return
  }
}
