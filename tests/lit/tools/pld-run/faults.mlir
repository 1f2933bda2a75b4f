// Faults pld-run reports: a deadlock (exit status 3) with each blocked
// rank's cell, and credits left in a signal (exit status 1).
//
// RUN: split-file %s %t
// RUN: not pld-run %t/deadlock.mlir --ranks 3 --deadline 0.2 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// RUN: sh -c 'pld-run %t/deadlock.mlir --ranks 3 --deadline 0.2 > /dev/null 2>&1; test $? -eq 3'
// RUN: not pld-run %t/deadlock.mlir --ranks 3 --deadline 0.2 --stats 2>/dev/null | FileCheck %s --check-prefix=DEADSTATS
// RUN: not pld-run %t/leak.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=LEAK
// RUN: not pld-run %t/leak.mlir --ranks 2 --input nope=zeros 2>&1 | FileCheck %s --check-prefix=PARAM
// RUN: not pld-run %t/leak.mlir --ranks 2 --input arg0=%t/missing.npy 2>&1 | FileCheck %s --check-prefix=NPY
// RUN: not pld-run %t/leak.mlir --ranks 2 --check 2>&1 | FileCheck %s --check-prefix=GOLDEN
// RUN: not pld-run %t/leak.mlir --ranks 2 --deadline 0 2>&1 | FileCheck %s --check-prefix=DEADLINE
// RUN: not pld-run %t/leak.mlir --ranks 3 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not pld-run %t/outside.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=OUTSIDE
// RUN: not pld-run %t/overrun.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=TILE

// DEADLOCK: pld-run: deadlock: every live rank has waited for more than 200.0ms
// DEADLOCK-NEXT: rank 1 in @divergent: waits for the i32 cell at rank 1's window, byte 0 (i32 cell 0 of the window) >= 1, which holds 0
// DEADLOCK-NEXT: rank 2 in @divergent: waits for the i32 cell at rank 2's window, byte 0 (i32 cell 0 of the window) >= 1, which holds 0
// DEADLOCK-NEXT: finished: rank 0
// Each waited-on cell named as the source names it.
// DEADLOCK-NEXT: rank 1 waits on %sig (arg0) at [0, 0], the signal of pld.tensor_barrier at {{.*}}deadlock.mlir:9:10
// DEADLOCK-NEXT: rank 2 waits on %sig (arg0) at [0, 0], the signal of pld.tensor_barrier at {{.*}}deadlock.mlir:9:10
// --stats after a deadlock: how far the ranks got, the phases (no check).
// DEADSTATS: rank notifies waits remote bytes read remote bytes written
// DEADSTATS-NEXT: all {{[0-9]+}} {{[0-9]+}} 0 0
// DEADSTATS-NEXT: phases: lower {{.*}}, compile {{.*}}, fill {{.*}}, run {{[^,]*}}{{$}}
// DEADSTATS-NEXT: compile cache: lowered module

// A leaked cell is named by the parameter's source name and its [row, col]
// in the signal: rank 1 notified row 1 of rank 0's signal, rank 0 row 0 of
// rank 1's, and nobody took the credits back.
// LEAK-DAG: pld-run: credit leak in %sig (arg0) at [1, 0]: rank 0's cell holds 1 (should be back to 0)
// LEAK-DAG: pld-run: credit leak in %sig (arg0) at [0, 0]: rank 1's cell holds 1 (should be back to 0)
// PARAM: pld-run: error: @leaky has no parameter 'nope'
// NPY: pld-run: error: cannot read '{{.*}}missing.npy'
// GOLDEN: leak.mlir:4:1: error: --check cannot compare @leaky: @leaky has 0 collectives; --check needs exactly one
// DEADLINE: pld-run: error: --deadline takes a positive number of seconds (at most about 1.8e19), not 0.0
// On three ranks the hand-made barrier's rank 2 computes peer -1: its
// notify names row 2 and its wait row -1 of a two-row signal, and both are
// reported instead of performed.
// Each device call's error is led by the op's location and name.
// SHAPE-DAG: pld-run: error: rank 2: {{.*}}leak.mlir:12:3: `pld.system_notify` (pto.comm_tnotify): notify through a pto.partition_view that leaves its pto.make_tensor_view (elements 2..3 of dimension 0, which holds 2): an offset past the end of its tensor?
// SHAPE-DAG: pld-run: error: rank 2: {{.*}}leak.mlir:13:3: `pld.system_wait` (pto.comm_twait): wait through a pto.partition_view that leaves its pto.make_tensor_view (elements -1..0 of dimension 0, which holds 2): an offset before the start of its tensor?
// OUTSIDE-DAG: pld-run: error: rank 0: {{.*}}outside.mlir:10:3: `pld.tile_store` (pto.tstore): a store through a pto.partition_view that leaves its pto.make_tensor_view (elements -8..8 of dimension 1, which holds 64): an offset before the start of its tensor?
// OUTSIDE-DAG: pld-run: error: rank 1: {{.*}}outside.mlir:10:3: `pld.tile_store` (pto.tstore): a store through a pto.partition_view that leaves its pto.make_tensor_view (elements -7..9 of dimension 1, which holds 64): an offset before the start of its tensor?
// TILE: pld-run: error: rank {{[01]}}: {{.*}}overrun.mlir:10:8: `pld.tile_load` (pto.tload): a store of bytes 16..{{[0-9]+}} relative to a 80-byte tile leaves it (a valid shape larger than the tile?)

//--- deadlock.mlir
// Rank 0 skips the barrier its peers enter.
func.func @divergent(%sig: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<4x1xi32, #pld.dist>) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %c0 = arith.constant 0 : i32
  %skip = arith.cmpi eq, %me, %c0 : i32
  scf.if %skip {
  } else {
    %r = "pld.tensor_barrier"(%sig) : (tensor<4x1xi32, #pld.dist>) -> tensor<4x1xi32, #pld.dist>
  }
  return
}

//--- leak.mlir
// A hand-made barrier without the epilogue that returns its credits: the
// parameter its notify adds to and its wait watches is a signal, so pld-run
// checks that it is back to zero.
func.func @leaky(%sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<2x1xi32, #pld.dist>) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %peer = arith.subi %c1, %me : index
  %one = arith.constant 1 : i32
  "pld.system_notify"(%sig, %peer, %me, %c0, %one) {op = #pld.notify_op<"atomic_add">} : (tensor<2x1xi32, #pld.dist>, index, index, index, i32) -> ()
  "pld.system_wait"(%sig, %peer, %c0, %one) {cmp = #pld.wait_cmp<"ge">} : (tensor<2x1xi32, #pld.dist>, index, index, i32) -> ()
  return
}

//--- outside.mlir
// A store that starts before the window (at column rank - 8).
func.func @before(%data: tensor<1x64xf32, #pld.dist>, %local: tensor<1x64xf32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%data) : (tensor<1x64xf32, #pld.dist>) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %off = arith.subi %me, %c8 : index
  %t = "pld.tile_load"(%local, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (tensor<1x64xf32>, index, index) -> tensor<1x16xf32, #pld.tile>
  "pld.tile_store"(%t, %data, %c0, %off) : (tensor<1x16xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  return
}

//--- overrun.mlir
// A run-time valid extent far beyond the 16-column tile.
func.func @overrun(%data: tensor<1x4096xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%data) : (tensor<1x4096xf32, #pld.dist>) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4000 = arith.constant 4000 : index
  %n = arith.addi %me, %c4000 : index
  %t = "pld.tile_load"(%data, %c0, %c0, %c1, %n) {operandSegmentSizes = array<i32: 1, 2, 2>} : (tensor<1x4096xf32, #pld.dist>, index, index, index, index) -> tensor<1x16xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
  return
}
