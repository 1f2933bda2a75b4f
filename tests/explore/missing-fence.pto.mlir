// Broken on purpose, written at the PTO level (as a third-party emitter
// would): each rank stores its row into its peer's window
// (pto.tstore through a translated peer pointer) and signals the peer, but
// there is no pto.fence_barrier_all between the store and the notify. On
// the NPU the signal can overtake the data, and the peer's load after its
// wait may read the old row. (pld's own pipeline inserts that fence:
// pld-insert-comm-fence; this file is what comes out without it.)
//
// The explorer reports the notify that follows the unfenced remote store,
// and the peer's load of the bytes that store wrote.
module {
  func.func @push(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<i32>, %arg2: !pto.ptr<f32>, %arg3: !pto.ptr<f32>, %arg4: !pto.ptr<i64>, %arg5: !pto.ptr<i64>) attributes {pld.kind = #pld.func_kind<"incore">, pld.signature = (tensor<1x64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<1x64xf32>, tensor<1x64xf32>, !pld.ctx, !pld.ctx) -> (), pto.kernel_kind = #pto.kernel_kind<"vector">} {
    %c2 = arith.constant 2 : index
    %0 = "pto.load_scalar"(%arg4, %c2) : (!pto.ptr<i64>, index) -> i64
    %1 = arith.trunci %0 : i64 to i32
    %2 = arith.index_cast %1 : i32 to index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1_i32 = arith.constant 1 : i32
    %c-1_i32 = arith.constant -1 : i32
    %3 = arith.subi %c1, %2 : index
    %4 = arith.index_cast %3 : index to i32
    %c1_0 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c1_1 = arith.constant 1 : index
    %c64_2 = arith.constant 64 : index
    %c64_3 = arith.constant 64 : index
    %c1_4 = arith.constant 1 : index
    %5 = "pto.make_tensor_view"(%arg2, %c1_1, %c64_2, %c64_3, %c1_4) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xf32>>
    %6 = "pto.partition_view"(%5, %c0, %c0, %c1_0, %c64) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x64xf32>>
    %7 = "pto.alloc_tile"(%c1_0, %c64) {operandSegmentSizes = array<i32: 0, 1, 1>} : (index, index) -> !pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>
    "pto.tload"(%6, %7) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>} : (!pto.partition_tensor_view<tensor<1x64xf32>>, !pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>) -> ()
    %8:2 = "pto.get_validshape"(%7) : (!pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>) -> (index, index)
    %9 = arith.index_cast %4 : i32 to index
    %c2_5 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %10 = "pto.load_scalar"(%arg4, %c2_5) : (!pto.ptr<i64>, index) -> i64
    %11 = arith.trunci %10 : i64 to i32
    %12 = arith.index_cast %11 : i32 to index
    %13 = arith.addi %c4, %12 : index
    %14 = "pto.load_scalar"(%arg4, %13) : (!pto.ptr<i64>, index) -> i64
    %15 = arith.addi %c4, %9 : index
    %16 = "pto.load_scalar"(%arg4, %15) : (!pto.ptr<i64>, index) -> i64
    %17 = arith.subi %16, %14 : i64
    %c4_i64 = arith.constant 4 : i64
    %18 = arith.divsi %17, %c4_i64 : i64
    %19 = arith.index_cast %18 : i64 to index
    %20 = "pto.addptr"(%arg0, %19) : (!pto.ptr<f32>, index) -> !pto.ptr<f32>
    %c1_6 = arith.constant 1 : index
    %c64_7 = arith.constant 64 : index
    %c64_8 = arith.constant 64 : index
    %c1_9 = arith.constant 1 : index
    %21 = "pto.make_tensor_view"(%20, %c1_6, %c64_7, %c64_8, %c1_9) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xf32>>
    %22 = "pto.partition_view"(%21, %c0, %c0, %8#0, %8#1) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<?x?xf32>>
    "pto.tstore"(%7, %22) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (!pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>, !pto.partition_tensor_view<tensor<?x?xf32>>) -> ()
    "pto.cmo_cacheinvalid"(%22) {line = #pto.cache_line<"single_cache_line">} : (!pto.partition_tensor_view<tensor<?x?xf32>>) -> ()
    "pto.barrier"() {pipe = #pto.pipe<"PIPE_ALL">} : () -> ()
    %c2_10 = arith.constant 2 : index
    %c4_11 = arith.constant 4 : index
    %23 = "pto.load_scalar"(%arg5, %c2_10) : (!pto.ptr<i64>, index) -> i64
    %24 = arith.trunci %23 : i64 to i32
    %25 = arith.index_cast %24 : i32 to index
    %26 = arith.addi %c4_11, %25 : index
    %27 = "pto.load_scalar"(%arg5, %26) : (!pto.ptr<i64>, index) -> i64
    %28 = arith.addi %c4_11, %3 : index
    %29 = "pto.load_scalar"(%arg5, %28) : (!pto.ptr<i64>, index) -> i64
    %30 = arith.subi %29, %27 : i64
    %c4_i64_12 = arith.constant 4 : i64
    %31 = arith.divsi %30, %c4_i64_12 : i64
    %32 = arith.index_cast %31 : i64 to index
    %33 = "pto.addptr"(%arg1, %32) : (!pto.ptr<i32>, index) -> !pto.ptr<i32>
    %c2_13 = arith.constant 2 : index
    %c1_14 = arith.constant 1 : index
    %c1_15 = arith.constant 1 : index
    %c2_16 = arith.constant 2 : index
    %34 = "pto.make_tensor_view"(%33, %c2_13, %c1_14, %c1_15, %c2_16) {layout = #pto.layout<"dn">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xi32>>
    %c1_17 = arith.constant 1 : index
    %c1_18 = arith.constant 1 : index
    %35 = "pto.partition_view"(%34, %2, %c0, %c1_17, %c1_18) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xi32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x1xi32>>
    "pto.barrier"() {pipe = #pto.pipe<"PIPE_ALL">} : () -> ()
    "pto.comm_tnotify"(%35, %c1_i32) {notifyOp = #pto.notify_op<"atomic_add">} : (!pto.partition_tensor_view<tensor<1x1xi32>>, i32) -> ()
    %c2_19 = arith.constant 2 : index
    %c1_20 = arith.constant 1 : index
    %c1_21 = arith.constant 1 : index
    %c2_22 = arith.constant 2 : index
    %36 = "pto.make_tensor_view"(%arg1, %c2_19, %c1_20, %c1_21, %c2_22) {layout = #pto.layout<"dn">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xi32>>
    %c1_23 = arith.constant 1 : index
    %c1_24 = arith.constant 1 : index
    %37 = "pto.partition_view"(%36, %3, %c0, %c1_23, %c1_24) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xi32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x1xi32>>
    "pto.comm_twait"(%37, %c1_i32) {cmp = #pto.wait_cmp<"ge">} : (!pto.partition_tensor_view<tensor<1x1xi32>>, i32) -> ()
    "pto.cmo_cacheinvalid"() {line = #pto.cache_line<"all">, space = #pto.address_space<"gm">} : () -> ()
    %c1_25 = arith.constant 1 : index
    %c64_26 = arith.constant 64 : index
    %c1_27 = arith.constant 1 : index
    %c64_28 = arith.constant 64 : index
    %c64_29 = arith.constant 64 : index
    %c1_30 = arith.constant 1 : index
    %38 = "pto.make_tensor_view"(%arg0, %c1_27, %c64_28, %c64_29, %c1_30) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xf32>>
    %39 = "pto.partition_view"(%38, %c0, %c0, %c1_25, %c64_26) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x64xf32>>
    %40 = "pto.alloc_tile"(%c1_25, %c64_26) {operandSegmentSizes = array<i32: 0, 1, 1>} : (index, index) -> !pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>
    "pto.tload"(%39, %40) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>} : (!pto.partition_tensor_view<tensor<1x64xf32>>, !pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>) -> ()
    %41:2 = "pto.get_validshape"(%40) : (!pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>) -> (index, index)
    %c1_31 = arith.constant 1 : index
    %c64_32 = arith.constant 64 : index
    %c64_33 = arith.constant 64 : index
    %c1_34 = arith.constant 1 : index
    %42 = "pto.make_tensor_view"(%arg3, %c1_31, %c64_32, %c64_33, %c1_34) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xf32>>
    %43 = "pto.partition_view"(%42, %c0, %c0, %41#0, %41#1) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<?x?xf32>>
    "pto.tstore"(%40, %43) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (!pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>, !pto.partition_tensor_view<tensor<?x?xf32>>) -> ()
    %c2_35 = arith.constant 2 : index
    %c4_36 = arith.constant 4 : index
    %44 = "pto.load_scalar"(%arg5, %c2_35) : (!pto.ptr<i64>, index) -> i64
    %45 = arith.trunci %44 : i64 to i32
    %46 = arith.index_cast %45 : i32 to index
    %47 = arith.addi %c4_36, %46 : index
    %48 = "pto.load_scalar"(%arg5, %47) : (!pto.ptr<i64>, index) -> i64
    %49 = arith.addi %c4_36, %2 : index
    %50 = "pto.load_scalar"(%arg5, %49) : (!pto.ptr<i64>, index) -> i64
    %51 = arith.subi %50, %48 : i64
    %c4_i64_37 = arith.constant 4 : i64
    %52 = arith.divsi %51, %c4_i64_37 : i64
    %53 = arith.index_cast %52 : i64 to index
    %54 = "pto.addptr"(%arg1, %53) : (!pto.ptr<i32>, index) -> !pto.ptr<i32>
    %c2_38 = arith.constant 2 : index
    %c1_39 = arith.constant 1 : index
    %c1_40 = arith.constant 1 : index
    %c2_41 = arith.constant 2 : index
    %55 = "pto.make_tensor_view"(%54, %c2_38, %c1_39, %c1_40, %c2_41) {layout = #pto.layout<"dn">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xi32>>
    %c1_42 = arith.constant 1 : index
    %c1_43 = arith.constant 1 : index
    %56 = "pto.partition_view"(%55, %3, %c0, %c1_42, %c1_43) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xi32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x1xi32>>
    "pto.barrier"() {pipe = #pto.pipe<"PIPE_ALL">} : () -> ()
    "pto.comm_tnotify"(%56, %c-1_i32) {notifyOp = #pto.notify_op<"atomic_add">} : (!pto.partition_tensor_view<tensor<1x1xi32>>, i32) -> ()
    return
  }
}
