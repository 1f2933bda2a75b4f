// A copy whose offset runs past the end of its tensor, far enough to leave
// every window (not only the one it starts in, faults.mlir), is refused at
// its op, in a plain run and under the explorer, rather than reading or
// writing memory no kernel owns (a heap overrun, then a crash, before).
// RUN: rm -rf %t && split-file %s %t
// RUN: not pld-run %t/remote-store.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=STORE
// RUN: not pld-run %t/remote-store.mlir --ranks 2 --explore 3 2>&1 | FileCheck %s --check-prefix=STORE
// RUN: not pld-run %t/remote-load.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=LOAD
// RUN: not pld-run %t/plain-far.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=PLAIN
// Past its own window by whole windows' worth of bytes, where a window laid
// out after it could begin: still in no window (with windows a page apart
// this store landed in the next rank's window, unreported).
// RUN: not pld-run %t/own-far.mlir --ranks 3 2>&1 | FileCheck %s --check-prefix=OWN
// A scalar read past its window is refused too, and not made (it faulted,
// and before that read memory no kernel owns).
// RUN: not pld-run %t/scalar-far.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=SCALAR
// In bounds, a plain (not distributed) parameter is still read.
// An offset so large that its bytes do not fit 64 bits (2^62 elements of
// 4 bytes) wrapped around to byte 0 of the window, and the load and the
// scalar read went through with exit 0:
// RUN: not pld-run %t/wrapped.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=WRAPPED
// RUN: not pld-run %t/wrapped.mlir --ranks 2 --explore 2 2>&1 | FileCheck %s --check-prefix=WRAPPED
// WRAPPED-DAG: rank 0: {{.*}}wrapped.mlir:9:8: pto.tload: a load at an offset that does not fit 64 bits (offset x stride x element size wraps around), in no window, tile or buffer of the run
// WRAPPED-DAG: rank 1: {{.*}}wrapped.mlir:9:8: pto.tload: a load at an offset
// WRAPPED-DAG: rank 0: {{.*}}wrapped.mlir:11:8: pto.load_scalar: a scalar load at an offset that does not fit 64 bits
// RUN: python3 %S/Inputs/npy.py write %t/src.npy f4 1,8 3f800000,40000000,40400000,40800000,0,0,0,0
// RUN: pld-run %t/plain.mlir --ranks 2 --input src=%t/src.npy --output-dir %t/out 2>&1 | FileCheck %s --check-prefix=FINE
// RUN: python3 %S/Inputs/npy.py show %t/out/dst.rank1.npy | FileCheck %s --check-prefix=COPIED

// The window holds %data (256 bytes) and %sig (8 bytes, 32 with alignment).
// Which window lies below a far address, and so the numbers the message
// gives, depends on where the allocator put the windows, so only the op,
// its location and the verdict are checked.
// STORE-DAG: error: rank 0: {{.*}}remote-store.mlir:12:3: pto.tstore: a store of bytes {{[0-9]+}}..{{[0-9]+}} relative to rank {{[01]}}'s window lies past its end (288 bytes), in no window, tile or buffer of the run (an offset past the end of its tensor?)
// STORE-DAG: error: rank 1: {{.*}}remote-store.mlir:12:3: pto.tstore: a store of bytes {{[0-9]+}}..{{[0-9]+}} relative to rank {{[01]}}'s window lies past its end (288 bytes), in no window, tile or buffer of the run (an offset past the end of its tensor?)
// LOAD-DAG: pld-run: error: rank 0: {{.*}}remote-load.mlir:11:8: pto.tload: a load of bytes {{[0-9]+}}..{{[0-9]+}} relative to rank {{[01]}}'s window lies past its end (288 bytes), in no window, tile or buffer of the run
// LOAD-DAG: pld-run: error: rank 1: {{.*}}remote-load.mlir:11:8: pto.tload: a load of bytes {{[0-9]+}}..{{[0-9]+}} relative to rank {{[01]}}'s window lies past its end (288 bytes), in no window, tile or buffer of the run
// PLAIN: pld-run: error: rank {{[01]}}: {{.*}}plain-far.mlir:5:8: pto.tload: a load {{.*}} in no window, tile or buffer of the run
// OWN-DAG: error: rank 0: {{.*}}own-far.mlir:19:5: pto.tstore: a store of bytes 8192..8448 relative to rank 0's window lies past its end (288 bytes), in no window, tile or buffer of the run
// OWN-DAG: error: rank 1: {{.*}}own-far.mlir:19:5: pto.tstore: a store of bytes 8192..8448 relative to rank 1's window lies past its end (288 bytes), in no window, tile or buffer of the run
// OWN-DAG: error: rank 2: {{.*}}own-far.mlir:22:5: pto.comm_tnotify: notify on the signal cell at 0x{{[0-9a-f]+}}, which is outside every window
// SCALAR-DAG: error: rank 0: {{.*}}scalar-far.mlir:11:8: pto.load_scalar: a scalar load of bytes 8192..8196 relative to rank 0's window lies past its end (288 bytes), in no window, tile or buffer of the run
// SCALAR-DAG: error: rank 1: {{.*}}scalar-far.mlir:11:8: pto.load_scalar: a scalar load of bytes 8192..8196 relative to rank 1's window lies past its end (288 bytes), in no window, tile or buffer of the run
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
