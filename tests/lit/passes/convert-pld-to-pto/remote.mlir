// convert-pld-to-pto: the peer-address translation of spec 9.2 and the op
// sequences of spec 9.3.
//
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(convert-pld-to-pto)' | FileCheck %s
// Exactly one division per remote op (two element types, two divisions):
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(convert-pld-to-pto)' | sed -n '/@two_types/,/^  }/p' | grep -c 'arith.divsi' | FileCheck %s --check-prefix=DIVS
// DIVS: 2

!half = tensor<1x32xf16, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>
!ragged = tensor<1x32xf16, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>

// A remote load of f16 and a notify of i32 in one kernel: each translates
// its peer's address inline, with its own element-size division.
// CHECK-LABEL: func.func @two_types(%arg0: !pto.ptr<f16>, %arg1: !pto.ptr<i32>, %arg2: index, %arg3: !pto.ptr<i64>, %arg4: !pto.ptr<i64>)
// CHECK-SAME: pto.kernel_kind = #pto.kernel_kind<"vector">
// The remote load: slot 2 (rankId), windowsIn base slot 4.
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[PAIR:.*]] = "pto.load_scalar"(%arg3, %[[C2]]) : (!pto.ptr<i64>, index) -> i64
// CHECK-NEXT: %[[RK32:.*]] = arith.trunci %[[PAIR]] : i64 to i32
// CHECK-NEXT: %[[RK:.*]] = arith.index_cast %[[RK32]] : i32 to index
// CHECK-NEXT: %[[LBI:.*]] = arith.addi %[[C4]], %[[RK]] : index
// CHECK-NEXT: %[[LB:.*]] = "pto.load_scalar"(%arg3, %[[LBI]])
// CHECK-NEXT: %[[PBI:.*]] = arith.addi %[[C4]], %arg2 : index
// CHECK-NEXT: %[[PB:.*]] = "pto.load_scalar"(%arg3, %[[PBI]])
// CHECK-NEXT: %[[BYTES:.*]] = arith.subi %[[PB]], %[[LB]] : i64
// CHECK-NEXT: %[[ESZ:.*]] = arith.constant 2 : i64
// CHECK-NEXT: %[[DE:.*]] = arith.divsi %[[BYTES]], %[[ESZ]] : i64
// CHECK-NEXT: %[[D:.*]] = arith.index_cast %[[DE]] : i64 to index
// CHECK-NEXT: %[[PP:.*]] = "pto.addptr"(%arg0, %[[D]]) : (!pto.ptr<f16>, index) -> !pto.ptr<f16>
// The FP16 tail variant's view is one 32-byte block wider.
// CHECK: %[[W:.*]] = arith.constant 47 : index
// CHECK: "pto.make_tensor_view"(%[[PP]], %{{.*}}, %[[W]], %{{.*}}, %{{.*}}) {layout = #pto.layout<"nd">
// CHECK: "pto.partition_view"
// CHECK-NEXT: %[[T:.*]] = "pto.alloc_tile"
// CHECK-NEXT: "pto.tload"(%{{.*}}, %[[T]])
// The notify: i32 elements, a barrier, then tnotify with its op.
// CHECK: "pto.load_scalar"(%arg4, %{{.*}})
// CHECK: %[[ESZ4:.*]] = arith.constant 4 : i64
// CHECK-NEXT: arith.divsi %{{.*}}, %[[ESZ4]] : i64
// CHECK: "pto.partition_view"({{.*}}) -> !pto.partition_tensor_view<tensor<1x1xi32>>
// CHECK-NEXT: "pto.barrier"() {pipe = #pto.pipe<"PIPE_ALL">}
// CHECK-NEXT: "pto.comm_tnotify"(%{{.*}}, %{{.*}}) {notifyOp = #pto.notify_op<"atomic_add">} : (!pto.partition_tensor_view<tensor<1x1xi32>>, i32) -> ()
// The wait: the local view, no peer arithmetic.
// CHECK-NEXT: %{{.*}} = arith.constant 4 : index
// CHECK: "pto.make_tensor_view"(%arg1,
// CHECK: "pto.comm_twait"(%{{.*}}, %{{.*}}) {cmp = #pto.wait_cmp<"ge">} : (!pto.partition_tensor_view<tensor<1x1xi32>>, i32) -> ()
// CHECK-NOT: arith.divsi
// CHECK-NOT: "pld.
func.func @two_types(%half: !half, %sig: !sig, %peer: index, %hctx: !pld.ctx, %sctx: !pld.ctx) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1 : i32
  %t = "pld.tile_remote_load_with_physical_tail_padding"(%half, %peer, %c0, %c0, %c1, %c32) {operandSegmentSizes = array<i32: 1, 1, 2, 2>} : (!half, index, index, index, index, index) -> !ragged
  "pld.system_notify"(%sig, %peer, %c0, %c0, %one) {op = #pld.notify_op<"atomic_add">} : (!sig, index, index, index, i32) -> ()
  "pld.system_wait"(%sig, %c0, %c0, %one) {cmp = #pld.wait_cmp<"ge">} : (!sig, index, index, i32) -> ()
  return
}

// -----

!data = tensor<1x64xf32, #pld.dist>
!tile = tensor<1x64xf32, #pld.tile>
!stage = tensor<1x64xf32, #pld.tile>

// rank and nranks read slot 2: the low and the high half.
// CHECK-LABEL: func.func @queries
// CHECK: %[[S:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[P:.*]] = "pto.load_scalar"(%arg1, %[[S]])
// CHECK-NEXT: %[[R:.*]] = arith.trunci %[[P]] : i64 to i32
// CHECK: %[[S2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[P2:.*]] = "pto.load_scalar"(%arg1, %[[S2]])
// CHECK-NEXT: %[[SH:.*]] = arith.constant 32 : i64
// CHECK-NEXT: %[[HI:.*]] = arith.shrui %[[P2]], %[[SH]] : i64
// CHECK-NEXT: arith.trunci %[[HI]] : i64 to i32
func.func @queries(%d: !data, %ctx: !pld.ctx) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %n = "pld.system_nranks"(%ctx) : (!pld.ctx) -> i32
  return
}

// Remote store: tstore (atomic add spelled out) then the peer line is
// cleaned.
// CHECK-LABEL: func.func @store
// CHECK: "pto.addptr"(%arg0,
// CHECK: %[[PV:.*]] = "pto.partition_view"
// CHECK-NEXT: "pto.tstore"(%{{.*}}, %[[PV]]) {atomicType = #pto.atomic_type<"atomic_add">, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
// CHECK-NEXT: "pto.cmo_cacheinvalid"(%[[PV]]) {line = #pto.cache_line<"single_cache_line">}
func.func @store(%d: !data, %peer: i32, %ctx: !pld.ctx) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %t = "pld.tile_create"() : () -> !tile
  "pld.tile_remote_store"(%t, %d, %peer, %c0, %c0) {atomic = #pld.atomic_type<"add">} : (!tile, !data, i32, index, index) -> ()
  return
}

// Put: barrier, tput, barrier (DMA drained before any release), then the
// peer's line; get: barrier, tget, barrier.
// CHECK-LABEL: func.func @put_get
// CHECK: "pto.barrier"() {pipe = #pto.pipe<"PIPE_ALL">}
// CHECK-NEXT: "pto.comm_tput"(%[[DST:.*]], %{{.*}}, %{{.*}}) {atomicType = #pto.atomic_type<"atomic_none">}
// CHECK-NEXT: "pto.barrier"() {pipe = #pto.pipe<"PIPE_ALL">}
// CHECK-NEXT: "pto.cmo_cacheinvalid"(%[[DST]]) {line = #pto.cache_line<"single_cache_line">}
// CHECK: "pto.barrier"() {pipe = #pto.pipe<"PIPE_ALL">}
// CHECK-NEXT: "pto.comm_tget"
// CHECK-NEXT: "pto.barrier"() {pipe = #pto.pipe<"PIPE_ALL">}
func.func @put_get(%d: !data, %local: tensor<1x64xf32>, %peer: index, %ctx: !pld.ctx) attributes {pld.kind = #pld.func_kind<"incore">} {
  %s = "pld.tile_create"() : () -> !stage
  "pld.tile_put"(%d, %peer, %local, %s) {atomic = #pld.atomic_type<"none">, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0>} : (!data, index, tensor<1x64xf32>, !stage) -> ()
  "pld.tile_get"(%local, %peer, %d, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0>} : (tensor<1x64xf32>, index, !data, !stage) -> ()
  return
}

// Fences and cache maintenance.
// CHECK-LABEL: func.func @markers
// CHECK: "pto.barrier"() {pipe = #pto.pipe<"PIPE_ALL">}
// CHECK-NEXT: "pto.fence_barrier_all"() {scope = #pto.fence_scope<"gm">}
// CHECK: "pto.cmo_cacheinvalid"() {line = #pto.cache_line<"all">, space = #pto.address_space<"gm">}
// CHECK: %[[PV:.*]] = "pto.partition_view"
// CHECK-NEXT: "pto.cmo_cacheinvalid"(%[[PV]]) {line = #pto.cache_line<"single_cache_line">}
func.func @markers(%d: !data, %ctx: !pld.ctx) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  "pld.system_fence"() : () -> ()
  "pld.system_cacheinvalid"() {operandSegmentSizes = array<i32: 0, 0, 0>} : () -> ()
  "pld.system_cacheinvalid"(%d, %c1, %c64, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!data, index, index, index, index) -> ()
  return
}

// -----

// A column tile keeps its block layout on the tile buffer, whose rows are
// rounded up to 32 bytes (pto-isa's Tile asserts Rows * sizeof(T) % 32 ==
// 0 for a column-major tile): 8 f16 rows are 16 in the buffer, 8 valid.
// CHECK-LABEL: func.func @column
// CHECK: %[[R:.*]] = arith.constant 8 : index
// CHECK: "pto.alloc_tile"(%[[R]], %{{.*}}) {{.*}}-> !pto.tile_buf<"vec", tensor<16x1xf16>, {blayout = "col_major", pad = 1 : i64, valid = array<i64: -1, -1>}>
func.func @column(%d: tensor<8x1xf16>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %t = "pld.tile_load"(%d, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (tensor<8x1xf16>, index, index) -> tensor<8x1xf16, #pld.tile_with<{blayout = "col_major"}>>
  "pld.tile_store"(%t, %d, %c0, %c0) : (tensor<8x1xf16, #pld.tile_with<{blayout = "col_major"}>>, tensor<8x1xf16>, index, index) -> ()
  return
}

// -----

// A row-major tile's buffer has its columns rounded up to 32 bytes (a
// 1x17xf32 buffer failed pto-isa's assert `Cols * sizeof(T) % 32 == 0`:
// pto25 H1); the valid columns stay 17.
// CHECK-LABEL: func.func @odd_row
// CHECK-DAG: %[[C17:.*]] = arith.constant 17 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: "pto.alloc_tile"(%[[C1]], %[[C17]]) {{.*}}-> !pto.tile_buf<"vec", tensor<1x24xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>
// CHECK: "pto.alloc_tile"({{.*}}) {{.*}}-> !pto.tile_buf<"vec", tensor<3x32xi8>, {pad = 1 : i64, valid = array<i64: -1, -1>}>
// CHECK: "pto.alloc_tile"({{.*}}) {{.*}}-> !pto.tile_buf<"vec", tensor<2x16xf16>, {pad = 1 : i64, valid = array<i64: -1, -1>}>
func.func @odd_row(%d: tensor<1x17xf32>, %b: tensor<3x17xi8>, %h: tensor<2x7xf16>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %t = "pld.tile_load"(%d, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (tensor<1x17xf32>, index, index) -> tensor<1x17xf32, #pld.tile>
  "pld.tile_store"(%t, %d, %c0, %c0) : (tensor<1x17xf32, #pld.tile>, tensor<1x17xf32>, index, index) -> ()
  %u = "pld.tile_load"(%b, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (tensor<3x17xi8>, index, index) -> tensor<3x17xi8, #pld.tile>
  "pld.tile_store"(%u, %b, %c0, %c0) : (tensor<3x17xi8, #pld.tile>, tensor<3x17xi8>, index, index) -> ()
  %v = "pld.tile_load"(%h, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (tensor<2x7xf16>, index, index) -> tensor<2x7xf16, #pld.tile>
  "pld.tile_store"(%v, %h, %c0, %c0) : (tensor<2x7xf16, #pld.tile>, tensor<2x7xf16>, index, index) -> ()
  return
}
