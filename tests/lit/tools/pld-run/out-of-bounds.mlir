// A copy whose offset runs past the end of its tensor is refused at its
// op, in a plain run and under the explorer, rather than reading or writing
// memory no kernel owns (a heap overrun, then a crash, before), whichever
// memory the address lands in: the sim lowering checks every
// pto.partition_view against its pto.make_tensor_view, and an access
// through one that leaves it is refused with the numbers of the view.
// RUN: rm -rf %t && split-file %s %t
// RUN: not pld-run %t/remote-store.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=STORE
// Under the explorer too, in the view's words; and a store just past its
// tensor that stays inside the window (onto the signal after it) is
// refused there as well (the explorer kept the kernel's address and saw
// nothing wrong: "no race ..." with exit 0).
// RUN: not pld-run %t/remote-store.mlir --ranks 2 --explore 3 2>&1 | FileCheck %s --check-prefix=STORE-EXPLORE
// (One finding for the op's fault on both ranks, as the pass groups them.)
// STORE-EXPLORE: error: rank {{[01]}}: {{.*}}remote-store.mlir:12:3: `pld.tile_remote_store` (pto.tstore): a store through a pto.partition_view that leaves its pto.make_tensor_view (elements {{1024..1088|1025..1089}} of dimension 1, which holds 64)
// STORE-EXPLORE: 1 finding (first seen with seed 0)
// RUN: not pld-run %t/near-store.mlir --ranks 2 --explore 3 2>&1 | FileCheck %s --check-prefix=NEAR-EXPLORE
// NEAR-EXPLORE: schedule 0 (--replay 0): error: rank {{[01]}}: {{.*}}near-store.mlir:12:3: `pld.tile_remote_store` (pto.tstore): a store through a pto.partition_view that leaves its pto.make_tensor_view (elements {{60..68|61..69}} of dimension 1, which holds 64)
// NEAR-EXPLORE: 3 schedules explored {{.*}}: 1 finding (first seen with seed 0)
// RUN: not pld-run %t/remote-load.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=LOAD
// RUN: not pld-run %t/plain-far.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=PLAIN
// Past its own window by whole windows' worth of bytes, where a window laid
// out after it could begin (with windows a page apart this store landed in
// the next rank's window, unreported).
// RUN: not pld-run %t/own-far.mlir --ranks 3 2>&1 | FileCheck %s --check-prefix=OWN
// A converted kernel's partition made on a line of its own is named there.
// RUN: not pld-run %t/converted-view.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=VIEW
// Where the view holds the access but the view itself lies past the window
// (a converted kernel's pointer arithmetic), the window the access leaves
// refuses it; and a scalar read past its window is refused too, and not
// made (it faulted, and before that read memory no kernel owns).
// RUN: not pld-run %t/converted-far.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=FAR
// RUN: not pld-run %t/scalar-far.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=SCALAR
// A pld.tensor_read one element past its tensor, still inside the window
// (the signal after it), is refused too (it read the signal's cell, exit
// 0): a scalar access through a parameter's own pointer is checked against
// the parameter's tensor. One through other pointer arithmetic is checked
// against the window, as a copy is.
// RUN: not pld-run %t/scalar-near.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=NEAR
// RUN: not pld-run %t/scalar-near.mlir --ranks 2 --explore 2 2>&1 | FileCheck %s --check-prefix=NEAR-ONCE
// RUN: not pld-run %t/converted-scalar.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=CSCALAR
// An offset so large that its bytes do not fit 64 bits (2^62 elements of
// 4 bytes) wrapped around to byte 0 of the window, and the load and the
// scalar read went through with exit 0:
// RUN: not pld-run %t/wrapped.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=WRAPPED
// RUN: not pld-run %t/wrapped.mlir --ranks 2 --explore 2 2>&1 | FileCheck %s --check-prefix=WRAPPED-ONCE
// WRAPPED-DAG: rank 0: {{.*}}wrapped.mlir:9:8: `pld.tile_remote_load` (pto.tload): a load through a pto.partition_view that leaves its pto.make_tensor_view (elements 4611686018427387904..4611686018427387912 of dimension 1, which holds 64): an offset past the end of its tensor?
// WRAPPED-DAG: rank 1: {{.*}}wrapped.mlir:9:8: `pld.tile_remote_load` (pto.tload): a load through a pto.partition_view
// WRAPPED-DAG: rank 0: {{.*}}wrapped.mlir:11:8: `pld.tensor_read` (pto.load_scalar): a scalar load of element 4611686018427387904 of a parameter whose tensor holds 64: an offset past the end of its tensor?
// WRAPPED-ONCE-DAG: rank {{[01]}}: {{.*}}wrapped.mlir:9:8: `pld.tile_remote_load` (pto.tload): a load through a pto.partition_view that leaves its pto.make_tensor_view (elements {{[0-9]+}}..{{[0-9]+}} of dimension 1, which holds 64): an offset past the end of its tensor?
// WRAPPED-ONCE-DAG: rank {{[01]}}: {{.*}}wrapped.mlir:11:8: `pld.tensor_read` (pto.load_scalar): a scalar load of element 4611686018427387904 of a parameter whose tensor holds 64: an offset past the end of its tensor?
// In bounds, a plain (not distributed) parameter is still read.
// RUN: python3 %S/Inputs/npy.py write %t/src.npy f4 1,8 3f800000,40000000,40400000,40800000,0,0,0,0
// RUN: pld-run %t/plain.mlir --ranks 2 --input src=%t/src.npy --output-dir %t/out 2>&1 | FileCheck %s --check-prefix=FINE
// RUN: python3 %S/Inputs/npy.py show %t/out/dst.rank1.npy | FileCheck %s --check-prefix=COPIED

// STORE-DAG: error: rank 0: {{.*}}remote-store.mlir:12:3: `pld.tile_remote_store` (pto.tstore): a store through a pto.partition_view that leaves its pto.make_tensor_view (elements 1024..1088 of dimension 1, which holds 64): an offset past the end of its tensor?
// STORE-DAG: error: rank 1: {{.*}}remote-store.mlir:12:3: `pld.tile_remote_store` (pto.tstore): a store through a pto.partition_view that leaves its pto.make_tensor_view (elements 1025..1089 of dimension 1, which holds 64): an offset past the end of its tensor?
// LOAD-DAG: pld-run: error: rank 0: {{.*}}remote-load.mlir:11:8: `pld.tile_remote_load` (pto.tload): a load through a pto.partition_view that leaves its pto.make_tensor_view (elements 10000..10064 of dimension 1, which holds 64)
// LOAD-DAG: pld-run: error: rank 1: {{.*}}remote-load.mlir:11:8: `pld.tile_remote_load` (pto.tload): a load through a pto.partition_view that leaves its pto.make_tensor_view (elements 10001..10065 of dimension 1, which holds 64)
// PLAIN: pld-run: error: rank {{[01]}}: {{.*}}plain-far.mlir:5:8: `pld.tile_load` (pto.tload): a load through a pto.partition_view that leaves its pto.make_tensor_view (elements 4096..4100 of dimension 1, which holds 8)
// OWN-DAG: error: rank 0: {{.*}}own-far.mlir:19:5: `pld.tile_store` (pto.tstore): a store through a pto.partition_view that leaves its pto.make_tensor_view (elements 2048..2112 of dimension 1, which holds 64)
// OWN-DAG: error: rank 1: {{.*}}own-far.mlir:19:5: `pld.tile_store` (pto.tstore): a store through a pto.partition_view that leaves its pto.make_tensor_view (elements 2048..2112 of dimension 1, which holds 64)
// OWN-DAG: error: rank 2: {{.*}}own-far.mlir:22:5: `pld.system_notify` (pto.comm_tnotify): notify through a pto.partition_view that leaves its pto.make_tensor_view (elements 2048..2049 of dimension 0, which holds 2)
// VIEW-DAG: error: rank 0: {{.*}}converted-view.mlir:13:3: pto.tstore: a store through a pto.partition_view at {{.*}}converted-view.mlir:10:11 that leaves its pto.make_tensor_view (elements 32..96 of dimension 1, which holds 64): an offset past the end of its tensor?
// VIEW-DAG: error: rank 1: {{.*}}converted-view.mlir:13:3: pto.tstore: a store through a pto.partition_view at {{.*}}converted-view.mlir:10:11 that leaves
// The window holds %data (256 bytes) and %sig (8 bytes, 32 with alignment).
// FAR-DAG: error: rank 0: {{.*}}converted-far.mlir:16:3: pto.tstore: a store of bytes 8192..8448 relative to rank 0's window lies past its end (288 bytes), in no window, tile or buffer of the run (an offset past the end of its tensor?)
// FAR-DAG: error: rank 1: {{.*}}converted-far.mlir:16:3: pto.tstore: a store of bytes 8192..8448 relative to rank 1's window lies past its end (288 bytes), in no window, tile or buffer of the run
// SCALAR-DAG: error: rank 0: {{.*}}scalar-far.mlir:11:8: `pld.tensor_read` (pto.load_scalar): a scalar load of element 2048 of a parameter whose tensor holds 64: an offset past the end of its tensor?
// SCALAR-DAG: error: rank 1: {{.*}}scalar-far.mlir:11:8: `pld.tensor_read` (pto.load_scalar): a scalar load of element 2048 of a parameter whose tensor holds 64
// NEAR-DAG: error: rank 0: {{.*}}scalar-near.mlir:9:8: `pld.tensor_read` (pto.load_scalar): a scalar load of element 64 of a parameter whose tensor holds 64: an offset past the end of its tensor?
// NEAR-DAG: error: rank 1: {{.*}}scalar-near.mlir:9:8: `pld.tensor_read` (pto.load_scalar): a scalar load of element 64 of a parameter whose tensor holds 64
// NEAR-ONCE: error: rank {{[01]}}: {{.*}}scalar-near.mlir:9:8: `pld.tensor_read` (pto.load_scalar): a scalar load of element 64 of a parameter whose tensor holds 64: an offset past the end of its tensor?
// NEAR-ONCE: 1 finding (first seen with seed 0)
// CSCALAR-DAG: error: rank 0: {{.*}}converted-scalar.mlir:7:8: pto.load_scalar: a scalar load of bytes 8192..8196 relative to rank 0's window lies past its end (288 bytes), in no window, tile or buffer of the run
// CSCALAR-DAG: error: rank 1: {{.*}}converted-scalar.mlir:7:8: pto.load_scalar: a scalar load of bytes 8192..8196 relative to rank 1's window lies past its end (288 bytes), in no window, tile or buffer of the run
// FINE: @plain on 2 ranks: finished
// COPIED: <f4 (1, 4): 3f800000 x 1, 40000000 x 1, 40400000 x 1, 40800000 x 1

//--- remote-store.mlir
func.func @remote_store(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<2x1xi32, #pld.dist>) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %far = arith.constant 1024 : index
  %col = arith.addi %me, %far : index
  %peer = arith.subi %c1, %me : index
  %peer32 = arith.index_cast %peer : index to i32
  %t = "pld.tile_load"(%data, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (tensor<1x64xf32, #pld.dist>, index, index) -> tensor<1x64xf32, #pld.tile>
  "pld.tile_remote_store"(%t, %data, %peer32, %c0, %col) : (tensor<1x64xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, i32, index, index) -> ()
  return
}

//--- near-store.mlir
func.func @near_store(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<2x1xi32, #pld.dist>) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c60 = arith.constant 60 : index
  %col = arith.addi %c60, %me : index
  %peer = arith.subi %c1, %me : index
  %peer32 = arith.index_cast %peer : index to i32
  %t = "pld.tile_load"(%data, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (tensor<1x64xf32, #pld.dist>, index, index) -> tensor<1x8xf32, #pld.tile>
  "pld.tile_remote_store"(%t, %data, %peer32, %c0, %col) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, i32, index, index) -> ()
  return
}

//--- remote-load.mlir
func.func @remote_load(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<2x1xi32, #pld.dist>) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %far = arith.constant 10000 : index
  %col = arith.addi %me, %far : index
  %peer = arith.subi %c1, %me : index
  %peer32 = arith.index_cast %peer : index to i32
  %t = "pld.tile_remote_load"(%data, %peer32, %c0, %col) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (tensor<1x64xf32, #pld.dist>, i32, index, index) -> tensor<1x64xf32, #pld.tile>
  "pld.tile_store"(%t, %data, %c0, %c0) : (tensor<1x64xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  return
}

//--- plain.mlir
// Copies the first 4 elements of the plain %src into %dst.
func.func @plain(%dst: tensor<1x4xf32, #pld.dist>, %src: tensor<1x8xf32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %t = "pld.tile_load"(%src, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (tensor<1x8xf32>, index, index) -> tensor<1x4xf32, #pld.tile>
  "pld.tile_store"(%t, %dst, %c0, %c0) : (tensor<1x4xf32, #pld.tile>, tensor<1x4xf32, #pld.dist>, index, index) -> ()
  return
}

//--- plain-far.mlir
// The same from column 4096 of the 8 of %src.
func.func @plain_far(%dst: tensor<1x4xf32, #pld.dist>, %src: tensor<1x8xf32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %far = arith.constant 4096 : index
  %t = "pld.tile_load"(%src, %c0, %far) {operandSegmentSizes = array<i32: 1, 2, 0>} : (tensor<1x8xf32>, index, index) -> tensor<1x4xf32, #pld.tile>
  "pld.tile_store"(%t, %dst, %c0, %c0) : (tensor<1x4xf32, #pld.tile>, tensor<1x4xf32, #pld.dist>, index, index) -> ()
  return
}

//--- own-far.mlir
// Ranks 0 and 1 store 8 KiB past the start of their own %data; rank 2 notifies
// row 2048 of its own %sig (computed, as the verifier refuses a constant
// out of bounds), 8 KiB past its window.
func.func @own_far(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<2x1xi32, #pld.dist>) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c1024 = arith.constant 1024 : index
  %c2048 = arith.constant 2048 : index
  %one = arith.constant 1 : i32
  %storing = arith.cmpi ult, %me, %c2 : index
  scf.if %storing {
    %col = arith.muli %me, %c0 : index
    %far = arith.addi %col, %c2048 : index
    %t = "pld.tile_load"(%data, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (tensor<1x64xf32, #pld.dist>, index, index) -> tensor<1x64xf32, #pld.tile>
    "pld.tile_store"(%t, %data, %c0, %far) : (tensor<1x64xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  } else {
    %row = arith.muli %me, %c1024 : index
    "pld.system_notify"(%sig, %me32, %row, %c0, %one) {op = #pld.notify_op<"atomic_add">} : (tensor<2x1xi32, #pld.dist>, i32, index, index, i32) -> ()
  }
  return
}

//--- scalar-far.mlir
// Every rank reads the element 2048 columns into its own %data and
// adds it to its own signal cell (so that the read is used).
func.func @scalar_far(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<2x1xi32, #pld.dist>) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c2048 = arith.constant 2048 : index
  %col = arith.muli %me, %c0 : index
  %far = arith.addi %col, %c2048 : index
  %e = "pld.tensor_read"(%data, %c0, %far) : (tensor<1x64xf32, #pld.dist>, index, index) -> f32
  %i = arith.fptosi %e : f32 to i32
  "pld.system_notify"(%sig, %me32, %c0, %c0, %i) {op = #pld.notify_op<"atomic_add">} : (tensor<2x1xi32, #pld.dist>, i32, index, index, i32) -> ()
  return
}

//--- wrapped.mlir
func.func @k(%data: tensor<1x64xf32, #pld.dist>, %local: tensor<1x64xf32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%data) : (tensor<1x64xf32, #pld.dist>) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %mei = arith.index_cast %me : i32 to index
  %c0 = arith.constant 0 : index
  %big = arith.constant 4611686018427387904 : index
  %o = arith.addi %mei, %big : index
  %peer = arith.constant 0 : i32
  %r = "pld.tile_remote_load"(%data, %peer, %c0, %o) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (tensor<1x64xf32, #pld.dist>, i32, index, index) -> tensor<1x8xf32, #pld.tile>
  "pld.tile_store"(%r, %local, %c0, %c0) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32>, index, index) -> ()
  %v = "pld.tensor_read"(%data, %c0, %o) : (tensor<1x64xf32, #pld.dist>, index, index) -> f32
  return
}

//--- converted-view.mlir
// A converted kernel whose partition takes columns 32..96 of a 64-column
// tensor view, made on its own line: the store through it names it.
func.func @view_past(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<i32>, %arg2: !pto.ptr<i64>, %arg3: !pto.ptr<i64>) attributes {pld.kind = #pld.func_kind<"incore">, pld.signature = (tensor<1x64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, !pld.ctx, !pld.ctx) -> (), pto.kernel_kind = #pto.kernel_kind<"vector">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %view = "pto.make_tensor_view"(%arg0, %c1, %c64, %c64, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xf32>>
  %part = "pto.partition_view"(%view, %c0, %c0, %c1, %c64) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x64xf32>>
  %past = "pto.partition_view"(%view, %c0, %c32, %c1, %c64) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x64xf32>>
  %tile = "pto.alloc_tile"(%c1, %c64) {operandSegmentSizes = array<i32: 0, 1, 1>} : (index, index) -> !pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>
  "pto.tload"(%part, %tile) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>} : (!pto.partition_tensor_view<tensor<1x64xf32>>, !pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>) -> ()
  "pto.tstore"(%tile, %past) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (!pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>, !pto.partition_tensor_view<tensor<1x64xf32>>) -> ()
  return
}

//--- converted-far.mlir
// A converted kernel whose tensor view itself starts 2048 elements past
// the start of its window: the partition lies inside the view, and the
// store is refused by the window it leaves.
func.func @far_base(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<i32>, %arg2: !pto.ptr<i64>, %arg3: !pto.ptr<i64>) attributes {pld.kind = #pld.func_kind<"incore">, pld.signature = (tensor<1x64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, !pld.ctx, !pld.ctx) -> (), pto.kernel_kind = #pto.kernel_kind<"vector">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %far = arith.constant 2048 : index
  %view = "pto.make_tensor_view"(%arg0, %c1, %c64, %c64, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xf32>>
  %part = "pto.partition_view"(%view, %c0, %c0, %c1, %c64) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x64xf32>>
  %tile = "pto.alloc_tile"(%c1, %c64) {operandSegmentSizes = array<i32: 0, 1, 1>} : (index, index) -> !pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>
  "pto.tload"(%part, %tile) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>} : (!pto.partition_tensor_view<tensor<1x64xf32>>, !pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>) -> ()
  %base = "pto.addptr"(%arg0, %far) : (!pto.ptr<f32>, index) -> !pto.ptr<f32>
  %far_view = "pto.make_tensor_view"(%base, %c1, %c64, %c64, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xf32>>
  %far_part = "pto.partition_view"(%far_view, %c0, %c0, %c1, %c64) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x64xf32>>
  "pto.tstore"(%tile, %far_part) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (!pto.tile_buf<"vec", tensor<1x64xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>, !pto.partition_tensor_view<tensor<1x64xf32>>) -> ()
  return
}

//--- scalar-near.mlir
func.func @scalar_near(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<2x1xi32, #pld.dist>) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %col = arith.muli %me, %c0 : index
  %next = arith.addi %col, %c64 : index
  %e = "pld.tensor_read"(%data, %c0, %next) : (tensor<1x64xf32, #pld.dist>, index, index) -> f32
  %i = arith.fptosi %e : f32 to i32
  "pld.system_notify"(%sig, %me32, %c0, %c0, %i) {op = #pld.notify_op<"atomic_add">} : (tensor<2x1xi32, #pld.dist>, i32, index, index, i32) -> ()
  return
}

//--- converted-scalar.mlir
// A converted kernel reads an element 2048 floats past its window's start
// through a pointer of its own arithmetic, and stores it at element 0.
func.func @scalar_arith(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<i32>, %arg2: !pto.ptr<i64>, %arg3: !pto.ptr<i64>) attributes {pld.kind = #pld.func_kind<"incore">, pld.signature = (tensor<1x64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, !pld.ctx, !pld.ctx) -> (), pto.kernel_kind = #pto.kernel_kind<"vector">} {
  %c0 = arith.constant 0 : index
  %far = arith.constant 2048 : index
  %p = "pto.addptr"(%arg0, %far) : (!pto.ptr<f32>, index) -> !pto.ptr<f32>
  %e = "pto.load_scalar"(%p, %c0) : (!pto.ptr<f32>, index) -> f32
  "pto.store_scalar"(%e, %arg0, %c0) : (f32, !pto.ptr<f32>, index) -> ()
  return
}
