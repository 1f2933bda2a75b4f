// convert-pto-to-sim: a converted kernel becomes func/arith/scf/llvm with
// calls of the simulator's device functions; orchestrators are removed and
// the device functions are declared from pld_sim.h.
//
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(convert-pto-to-sim)' | FileCheck %s

!tile = !pto.tile_buf<"vec", tensor<1x64xf32>, {valid = array<i64: 1, 64>}>
!part = !pto.partition_tensor_view<tensor<1x64xf32>>
!sigpart = !pto.partition_tensor_view<tensor<1x1xi32>>

// CHECK-LABEL: func.func @kernel(%arg0: !llvm.ptr, %arg1: !llvm.ptr)
// CHECK-SAME: llvm.emit_c_interface
// CHECK-NOT: pto.
// A tile is a block the simulator allocates: 16 header bytes + 64 floats.
// Its allocation is a site of the module (numbered after the partition
// view before it): the simulator reuses one buffer per site and core.
// CHECK: %[[BYTES:.*]] = arith.constant 272 : i64
// CHECK: %[[SITE:.*]] = arith.constant {{[0-9]+}} : i64
// CHECK: %[[TILE:.*]] = call @pld_sim_tile_alloc(%[[SITE]], %[[BYTES]]) : (i64, i64) -> !llvm.ptr
// A load is a checked copy into the tile's data (4-byte elements, assign),
// named first for the explorer's reports by its site number.
// CHECK: call @pld_sim_at(%{{.*}}) : (i64) -> ()
// CHECK-NOT: call @pld_sim_at
// CHECK: call @pld_sim_copy({{.*}}) : (!llvm.ptr, i64, i64, !llvm.ptr, i64, i64, i64, i64, i32, i32) -> ()
// The notify and the wait take the pld ABI values (AtomicAdd 0, Ge 1).
// CHECK: call @pld_sim_at(
// CHECK: %[[ADD:.*]] = arith.constant 0 : i32
// CHECK: call @pld_sim_notify(%{{.*}}, %{{.*}}, %[[ADD]])
// CHECK: %[[GE:.*]] = arith.constant 1 : i32
// CHECK: call @pld_sim_wait(%{{.*}}, %{{.*}}, %[[GE]])
// CHECK: call @pld_sim_fence()
// CHECK: return
// The orchestrator is gone; the device functions are declared.
// CHECK-NOT: @host
// CHECK-DAG: func.func private @pld_sim_notify(!llvm.ptr, i32, i32)
// CHECK-DAG: func.func private @pld_sim_wait(!llvm.ptr, i32, i32)
// CHECK-DAG: func.func private @pld_sim_test(!llvm.ptr, i32, i32) -> i32
// CHECK-DAG: func.func private @pld_sim_copy(!llvm.ptr, i64, i64, !llvm.ptr, i64, i64, i64, i64, i32, i32)
// CHECK-DAG: func.func private @pld_sim_tile_alloc(i64, i64) -> !llvm.ptr
// CHECK-DAG: func.func private @pld_sim_at(i64)
// CHECK-DAG: func.func private @pld_sim_scalar(!llvm.ptr, i64, i32, i64) -> !llvm.ptr
func.func @kernel(%p: !pto.ptr<f32>, %s: !pto.ptr<i32>) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1 : i32
  %v = "pto.make_tensor_view"(%p, %c1, %c64, %c64, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xf32>>
  %pv = "pto.partition_view"(%v, %c0, %c0, %c1, %c64) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !part
  %t = "pto.alloc_tile"() {operandSegmentSizes = array<i32: 0, 0, 0>} : () -> !tile
  "pto.tload"(%pv, %t) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>} : (!part, !tile) -> ()
  %sv = "pto.make_tensor_view"(%s, %c1, %c1, %c1, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xi32>>
  %sp = "pto.partition_view"(%sv, %c0, %c0, %c1, %c1) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xi32>>, index, index, index, index) -> !sigpart
  "pto.comm_tnotify"(%sp, %one) {notifyOp = #pto.notify_op<"atomic_add">} : (!sigpart, i32) -> ()
  "pto.comm_twait"(%sp, %one) {cmp = #pto.wait_cmp<"ge">} : (!sigpart, i32) -> ()
  "pto.fence_barrier_all"() {scope = #pto.fence_scope<"gm">} : () -> ()
  return
}
func.func @host() {
  return
}

// -----

// Scalar accesses: an f32 load and an i32 store go through the address
// pld_sim_scalar returns (the checked one, or a scratch cell after an
// error), announced with their width, 0 (load) or 1 (store) and the site;
// a CommContext slot (i64) is read directly.
// CHECK-LABEL: func.func @scalars
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %arg2
// CHECK-NEXT: llvm.load %[[SLOT]] : !llvm.ptr -> i64
// The address is computed in 128 bits; a byte offset that does not fit
// 64 bits gives an address in no window (2^62), which the call refuses.
// CHECK: %[[WIDE:.*]] = arith.muli %{{.*}}, %{{.*}} : i128
// CHECK: %[[NARROW:.*]] = arith.trunci %[[WIDE]] : i128 to i64
// CHECK: %[[BACK:.*]] = arith.extsi %[[NARROW]] : i64 to i128
// CHECK: %[[FITS:.*]] = arith.cmpi eq, %[[BACK]], %[[WIDE]] : i128
// CHECK: arith.andi %{{.*}}, %[[FITS]] : i1
// CHECK: %[[BYTES:.*]] = arith.muli %{{.*}}, %{{.*}} : i128
// CHECK: %[[BYTES_FIT:.*]] = arith.cmpi eq, %{{.*}}, %[[BYTES]] : i128
// CHECK: %[[OK:.*]] = arith.andi %{{.*}}, %[[BYTES_FIT]] : i1
// CHECK: %[[GEP:.*]] = llvm.getelementptr %arg0[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: %[[NOWHERE_AT:.*]] = arith.constant 4611686018427387904 : i64
// CHECK: %[[NOWHERE:.*]] = llvm.inttoptr %[[NOWHERE_AT]] : i64 to !llvm.ptr
// CHECK: %[[AT:.*]] = arith.select %[[OK]], %[[GEP]], %[[NOWHERE]] : !llvm.ptr
// CHECK: %[[FOUR:.*]] = arith.constant 4 : i64
// CHECK: %[[LOAD:.*]] = arith.constant 0 : i32
// CHECK: %[[CHECKED:.*]] = call @pld_sim_scalar(%[[AT]], %[[FOUR]], %[[LOAD]], %{{.*}}) : (!llvm.ptr, i64, i32, i64) -> !llvm.ptr
// CHECK: llvm.load %[[CHECKED]] : !llvm.ptr -> f32
// CHECK: %[[GEP2:.*]] = llvm.getelementptr %arg1
// CHECK: %[[TO:.*]] = arith.select %{{.*}}, %[[GEP2]], %{{.*}} : !llvm.ptr
// CHECK: %[[STORE:.*]] = arith.constant 1 : i32
// CHECK: %[[CHECKED2:.*]] = call @pld_sim_scalar(%[[TO]], %{{.*}}, %[[STORE]], %{{.*}}) : (!llvm.ptr, i64, i32, i64) -> !llvm.ptr
// CHECK: llvm.store %{{.*}}, %[[CHECKED2]] : i32, !llvm.ptr
func.func @scalars(%p: !pto.ptr<f32>, %s: !pto.ptr<i32>, %ctx: !pto.ptr<i64>) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1 : i32
  %slot = "pto.load_scalar"(%ctx, %c2) : (!pto.ptr<i64>, index) -> i64
  %x = "pto.load_scalar"(%p, %c3) : (!pto.ptr<f32>, index) -> f32
  "pto.store_scalar"(%one, %s, %c2) : (i32, !pto.ptr<i32>, index) -> ()
  return
}

// -----

// The asynchronous DMA ops: a session is an i64, its engine's number
// (PLD_DMA_URMA = 1) or -1 when the workspace is null; a put is a submit of
// the partition's block (direction PLD_DMA_PUT = 0) on the peer's queue,
// whose i64 handle is the event; the wait and the test are the device
// functions, their i32 compared with 0; an event carried by a loop is an
// i64 too.
!row = !pto.partition_tensor_view<tensor<1x64xf32>>
// CHECK-LABEL: func.func @async(%arg0: !llvm.ptr, %arg1: i64, %arg2: i32)
// CHECK-NOT: pto.
// CHECK: %[[VALID:.*]] = arith.cmpi ne, %arg1, %{{.*}} : i64
// CHECK: %[[URMA:.*]] = arith.constant 1 : i64
// CHECK: %[[NONE:.*]] = arith.constant -1 : i64
// CHECK: %[[SESSION:.*]] = arith.select %[[VALID]], %[[URMA]], %[[NONE]] : i64
// CHECK: call @pld_sim_at(
// The source's block moves; the destination's element count goes along
// for the runtime's check (dst at least as long as src).
// CHECK: %[[DST_ELEMS:.*]] = arith.muli
// CHECK: %[[ENGINE:.*]] = arith.trunci %[[SESSION]] : i64 to i32
// CHECK: %[[PUT:.*]] = arith.constant 0 : i32
// The peer widened to i64 (the no-peer value is outside the i32 range,
// so that a peer operand of -1 is told apart from none).
// CHECK: %[[PEER:.*]] = arith.extsi %arg2 : i32 to i64
// CHECK: %[[EVENT:.*]] = call @pld_sim_dma_submit(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[DST_ELEMS]], %{{.*}}, %[[ENGINE]], %[[PUT]], %[[PEER]]) : (!llvm.ptr, i64, i64, !llvm.ptr, i64, i64, i64, i64, i64, i32, i32, i32, i64) -> i64
// CHECK: scf.for {{.*}} iter_args(%[[CARRIED:.*]] = %[[EVENT]]) -> (i64)
// A wait or test polls its session's engine (the session's i64).
// CHECK: %[[TEST_ENGINE:.*]] = arith.trunci %[[SESSION]] : i64 to i32
// CHECK: call @pld_sim_dma_test(%[[CARRIED]], %[[TEST_ENGINE]]) : (i64, i32) -> i32
// CHECK: call @pld_sim_dma_wait(%{{.*}}, %{{.*}}) : (i64, i32) -> i32
// CHECK-DAG: func.func private @pld_sim_dma_submit(!llvm.ptr, i64, i64, !llvm.ptr, i64, i64, i64, i64, i64, i32, i32, i32, i64) -> i64
// CHECK-DAG: func.func private @pld_sim_dma_wait(i64, i32) -> i32
// CHECK-DAG: func.func private @pld_sim_dma_test(i64, i32) -> i32
func.func @async(%p: !pto.ptr<f32>, %ws: i64, %peer: i32) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %v = "pto.make_tensor_view"(%p, %c2, %c64, %c64, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xf32>>
  %a = "pto.partition_view"(%v, %c0, %c0, %c1, %c64) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !row
  %b = "pto.partition_view"(%v, %c1, %c0, %c1, %c64) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !row
  %s = "pto.comm_build_async_session"(%ws) {engine = #pto.dma_engine<"urma">, operandSegmentSizes = array<i32: 0, 1>} : (i64) -> !pto.async_session
  %e = "pto.comm_tput_async"(%b, %a, %s, %peer) {operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (!row, !row, !pto.async_session, i32) -> !pto.async_event
  %last = scf.for %i = %c0 to %c2 step %c1 iter_args(%x = %e) -> (!pto.async_event) {
    %now = "pto.comm_test_async_event"(%x, %s) : (!pto.async_event, !pto.async_session) -> i1
    scf.yield %x : !pto.async_event
  }
  %done = "pto.comm_wait_async_event"(%last, %s) : (!pto.async_event, !pto.async_session) -> i1
  return
}
