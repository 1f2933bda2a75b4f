// pld-translate --emit=pto spells every PTO op, type and attribute the way
// PTOAS parses them (pto-interface.md 1.3-1.5 and 2): custom forms,
// `ins(..)`/`outs(..)`, `#pto<enum value>` in dictionaries, compact tile
// buffers, `pto.comm.*` names, `pto.kernel_kind` and `pto.entry`. The
// expected lines are written from that reference, not from the printer.
//
// RUN: pld-translate --emit=pto %s | FileCheck %s --strict-whitespace --match-full-lines

!tile = !pto.tile_buf<"vec", tensor<1x256xf32>, {valid = array<i64: 1, -1>}>
!full = !pto.tile_buf<"vec", tensor<16x64xf16>, {valid = array<i64: 16, 64>}>
!dyn = !pto.tile_buf<"vec", tensor<16x64xf32>, {valid = array<i64: -1, -1>}>
!view = !pto.tensor_view<tensor<?x?xf32>>
!part = !pto.partition_tensor_view<tensor<1x256xf32>>
!sigpart = !pto.partition_tensor_view<tensor<1x1xi32>>

// CHECK:module {
// CHECK-NEXT:  func.func @vector_kernel(%arg0: !pto.ptr<i64>, %arg1: !pto.ptr<f32>, %arg2: !pto.ptr<i32>, %arg3: index) attributes {pto.entry, pto.kernel_kind = #pto.kernel_kind<vector>} {
func.func @vector_kernel(%ctx: !pto.ptr<i64>, %data: !pto.ptr<f32>, %sig: !pto.ptr<i32>, %n: index)
    attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  // CHECK-NEXT:    %c0 = arith.constant 0 : index
  // CHECK-NEXT:    %c1 = arith.constant 1 : index
  // CHECK-NEXT:    %c2 = arith.constant 2 : index
  // CHECK-NEXT:    %c256 = arith.constant 256 : index
  // CHECK-NEXT:    %c0_i64 = arith.constant 0 : i64
  // CHECK-NEXT:    %c1_i32 = arith.constant 1 : i32
  // CHECK-NEXT:    %c1_1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  %addr = arith.constant 0 : i64
  %one = arith.constant 1 : i32
  %again = arith.constant 1 : index
  // CHECK-NEXT:    %0 = pto.load_scalar %arg0[%c2] : !pto.ptr<i64> -> i64
  %pair = "pto.load_scalar"(%ctx, %c2) : (!pto.ptr<i64>, index) -> i64
  // CHECK-NEXT:    pto.store_scalar %c1_i32, %arg2[%c0] : !pto.ptr<i32>, i32
  "pto.store_scalar"(%one, %sig, %c0) : (i32, !pto.ptr<i32>, index) -> ()
  // CHECK-NEXT:    %1 = pto.addptr %arg1, %c256 : !pto.ptr<f32> -> !pto.ptr<f32>
  %peer = "pto.addptr"(%data, %c256) : (!pto.ptr<f32>, index) -> !pto.ptr<f32>
  // CHECK-NEXT:    %2 = pto.make_tensor_view %1, shape = [%c1, %arg3], strides = [%arg3, %c1_1] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
  %view = "pto.make_tensor_view"(%peer, %c1, %n, %n, %again) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !view
  // CHECK-NEXT:    %3 = pto.partition_view %2, offsets = [%c0, %c0], sizes = [%c1, %c256] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x256xf32>
  %part = "pto.partition_view"(%view, %c0, %c0, %c1, %c256) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!view, index, index, index, index) -> !part
  // A valid extent of `?` takes an operand, a static one none (PTOAS
  // refuses `valid_row = %c1` for a valid row of 1).
  // CHECK-NEXT:    %4 = pto.alloc_tile addr = %c0_i64 valid_col = %arg3 : !pto.tile_buf<vec, 1x256xf32, valid=1x?>
  %t = "pto.alloc_tile"(%addr, %n) {operandSegmentSizes = array<i32: 1, 0, 1>} : (i64, index) -> !tile
  // CHECK-NEXT:    %5 = pto.alloc_tile valid_col = %arg3 : !pto.tile_buf<vec, 1x256xf32, valid=1x?>
  %u = "pto.alloc_tile"(%n) {operandSegmentSizes = array<i32: 0, 0, 1>} : (index) -> !tile
  // CHECK-NEXT:    %6 = pto.alloc_tile : !pto.tile_buf<vec, 16x64xf16>
  %s = "pto.alloc_tile"() {operandSegmentSizes = array<i32: 0, 0, 0>} : () -> !full
  // CHECK-NEXT:    pto.set_validshape %4, %c1, %arg3 : !pto.tile_buf<vec, 1x256xf32, valid=1x?>
  "pto.set_validshape"(%t, %c1, %n) : (!tile, index, index) -> ()
  // CHECK-NEXT:    %7, %8 = pto.get_validshape %4 : !pto.tile_buf<vec, 1x256xf32, valid=1x?>
  %r, %c = "pto.get_validshape"(%t) : (!tile) -> (index, index)
  // CHECK-NEXT:    pto.tload ins(%3 : !pto.partition_tensor_view<1x256xf32>) outs(%4 : !pto.tile_buf<vec, 1x256xf32, valid=1x?>)
  "pto.tload"(%part, %t) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>} : (!part, !tile) -> ()
  // CHECK-NEXT:    pto.tadd ins(%4, %5 : !pto.tile_buf<vec, 1x256xf32, valid=1x?>, !pto.tile_buf<vec, 1x256xf32, valid=1x?>) outs(%4 : !pto.tile_buf<vec, 1x256xf32, valid=1x?>)
  "pto.tadd"(%t, %u, %t) : (!tile, !tile, !tile) -> ()
  // CHECK-NEXT:    pto.tmax ins(%4, %5 : {{.*}}) outs(%4 : {{.*}})
  "pto.tmax"(%t, %u, %t) : (!tile, !tile, !tile) -> ()
  // CHECK-NEXT:    pto.tmin ins(%4, %5 : {{.*}}) outs(%4 : {{.*}})
  "pto.tmin"(%t, %u, %t) : (!tile, !tile, !tile) -> ()
  // CHECK-NEXT:    pto.tmul ins(%4, %5 : {{.*}}) outs(%4 : {{.*}})
  "pto.tmul"(%t, %u, %t) : (!tile, !tile, !tile) -> ()
  // CHECK-NEXT:    pto.tfillpad ins(%4 : !pto.tile_buf<vec, 1x256xf32, valid=1x?>) outs(%5 : !pto.tile_buf<vec, 1x256xf32, valid=1x?>)
  "pto.tfillpad"(%t, %u) : (!tile, !tile) -> ()
  // CHECK-NEXT:    pto.tfillpad_inplace ins(%4 : {{.*}}) outs(%4 : {{.*}})
  "pto.tfillpad_inplace"(%t, %t) : (!tile, !tile) -> ()
  // CHECK-NEXT:    pto.tstore ins(%4 : !pto.tile_buf<vec, 1x256xf32, valid=1x?>) outs(%3 : !pto.partition_tensor_view<1x256xf32>) {atomicType = #pto<atomic_type atomic_add>}
  "pto.tstore"(%t, %part) {atomicType = #pto.atomic_type<"atomic_add">, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (!tile, !part) -> ()
  // CHECK-NEXT:    pto.tstore ins(%4 : {{.*}}) outs(%3 : !pto.partition_tensor_view<1x256xf32>)
  "pto.tstore"(%t, %part) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (!tile, !part) -> ()
  // CHECK-NEXT:    pto.barrier <PIPE_ALL>
  "pto.barrier"() {pipe = #pto.pipe<"PIPE_ALL">} : () -> ()
  // CHECK-NEXT:    pto.fence.barrier_all #pto.fence_scope<gm>
  "pto.fence_barrier_all"() {scope = #pto.fence_scope<"gm">} : () -> ()
  // CHECK-NEXT:    pto.cmo.cacheinvalid %3 single_cache_line : !pto.partition_tensor_view<1x256xf32>
  "pto.cmo_cacheinvalid"(%part) {line = #pto.cache_line<"single_cache_line">} : (!part) -> ()
  // CHECK-NEXT:    pto.cmo.cacheinvalid all #pto.address_space<gm>
  "pto.cmo_cacheinvalid"() {line = #pto.cache_line<"all">, space = #pto.address_space<"gm">} : () -> ()
  %sview = "pto.make_tensor_view"(%sig, %c1, %c1, %c1, %c1) {layout = #pto.layout<"dn">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xi32>>
  // CHECK-NEXT:    %9 = pto.make_tensor_view %arg2, shape = [%c1, %c1], strides = [%c1, %c1] {layout = #pto.layout<dn>} : !pto.tensor_view<?x?xi32>
  %spart = "pto.partition_view"(%sview, %c0, %c0, %c1, %c1) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xi32>>, index, index, index, index) -> !sigpart
  // CHECK-NEXT:    %10 = pto.partition_view %9, offsets = [%c0, %c0], sizes = [%c1, %c1] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
  "pto.comm_tnotify"(%spart, %one) {notifyOp = #pto.notify_op<"atomic_add">} : (!sigpart, i32) -> ()
  // CHECK-NEXT:    pto.comm.tnotify(%10, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
  "pto.comm_tnotify"(%spart, %one) {notifyOp = #pto.notify_op<"set">} : (!sigpart, i32) -> ()
  // CHECK-NEXT:    pto.comm.tnotify(%10, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op set>}
  "pto.comm_twait"(%spart, %one) {cmp = #pto.wait_cmp<"ge">} : (!sigpart, i32) -> ()
  // CHECK-NEXT:    pto.comm.twait(%10, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}
  %ok = "pto.comm_ttest"(%spart, %one) {cmp = #pto.wait_cmp<"eq">} : (!sigpart, i32) -> i1
  // CHECK-NEXT:    %11 = pto.comm.ttest(%10, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp eq>} -> i1
  "pto.comm_tput"(%part, %part, %t) {atomicType = #pto.atomic_type<"atomic_none">} : (!part, !part, !tile) -> ()
  // CHECK-NEXT:    pto.comm.tput(%3, %3, buf(%4) : !pto.partition_tensor_view<1x256xf32>, !pto.partition_tensor_view<1x256xf32>, !pto.tile_buf<vec, 1x256xf32, valid=1x?>) {atomicType = #pto<atomic_type atomic_none>}
  "pto.comm_tget"(%part, %part, %t, %u) : (!part, !part, !tile, !tile) -> ()
  // CHECK-NEXT:    pto.comm.tget(%3, %3, buf(%4, %5) : !pto.partition_tensor_view<1x256xf32>, !pto.partition_tensor_view<1x256xf32>, !pto.tile_buf<vec, 1x256xf32, valid=1x?>, !pto.tile_buf<vec, 1x256xf32, valid=1x?>)
  %b = "pto.get_block_idx"() : () -> i64
  // CHECK-NEXT:    %12 = pto.get_block_idx
  %nb = "pto.get_block_num"() : () -> i64
  // CHECK-NEXT:    %13 = pto.get_block_num
  %d = "pto.alloc_tile"(%n, %n) {operandSegmentSizes = array<i32: 0, 1, 1>} : (index, index) -> !dyn
  // CHECK-NEXT:    %14 = pto.alloc_tile valid_row = %arg3 valid_col = %arg3 : !pto.tile_buf<vec, 16x64xf32, valid=?x?>
  return
  // CHECK-NEXT:    return
  // CHECK-NEXT:  }
}

// The standard dialects keep their custom forms; an scf.yield without
// operands stays implicit, as its parser allows.
// CHECK-NEXT:  func.func private @control(%arg0: index, %arg1: i32) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {
func.func private @control(%n: index, %x: i32) attributes {pto.kernel_kind = #pto.kernel_kind<"cube">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK-NEXT:    %c0 = arith.constant 0 : index
  // CHECK-NEXT:    %c1 = arith.constant 1 : index
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (i32) {
    %ii = arith.index_cast %i : index to i32
    %gt = arith.cmpi sgt, %ii, %acc : i32
    %next = scf.if %gt -> (i32) {
      %s = arith.addi %acc, %ii : i32
      scf.yield %s : i32
    } else {
      scf.yield %acc : i32
    }
    %m = arith.select %gt, %next, %acc : i32
    scf.yield %m : i32
  }
  // CHECK-NEXT:    %0 = scf.for %arg2 = %c0 to %arg0 step %c1 iter_args(%arg3 = %arg1) -> (i32) {
  // CHECK-NEXT:      %1 = arith.index_cast %arg2 : index to i32
  // CHECK-NEXT:      %2 = arith.cmpi sgt, %1, %arg3 : i32
  // CHECK-NEXT:      %3 = scf.if %2 -> (i32) {
  // CHECK-NEXT:        %4 = arith.addi %arg3, %1 : i32
  // CHECK-NEXT:        scf.yield %4 : i32
  // CHECK-NEXT:      } else {
  // CHECK-NEXT:        scf.yield %arg3 : i32
  // CHECK-NEXT:      }
  // CHECK-NEXT:      %5 = arith.select %2, %3, %arg3 : i32
  // CHECK-NEXT:      scf.yield %5 : i32
  // CHECK-NEXT:    }
  scf.for %j = %c0 to %n step %c1 {
    %t = arith.constant true
    scf.if %t {
      %k = arith.muli %j, %j : index
    }
  }
  // CHECK-NEXT:    scf.for %arg4 = %c0 to %arg0 step %c1 {
  // CHECK-NEXT:      %true = arith.constant true
  // CHECK-NEXT:      scf.if %true {
  // CHECK-NEXT:        %6 = arith.muli %arg4, %arg4 : index
  // CHECK-NEXT:      }
  // CHECK-NEXT:    }
  %f = arith.constant 0.5 : f32
  // CHECK-NEXT:    %cst = arith.constant 5.000000e-01 : f32
  return
  // CHECK-NEXT:    return
  // CHECK-NEXT:  }
  // CHECK-NEXT:}
}
