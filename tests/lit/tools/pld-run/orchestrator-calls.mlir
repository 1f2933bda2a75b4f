// pld-run interprets the HOST and CHIP orchestrators, and the helpers they
// call, with a frame of values per call: a recursive helper that reads its
// own values after its recursive call returned computed with its callee's
// (every call of a function shared one set of values), so sum(3) below was
// 0 and no kernel ran, exit 0. Calls are followed 64 deep.
//
// RUN: rm -rf %t && mkdir -p %t
// 3 devices: sum(3) = 6 rounds of x[1] += x[0] from ones: 7 (by hand).
// RUN: pld-run %s --ranks 3 --input x=ones --output-dir %t/out | FileCheck %s
// CHECK: @main on 3 devices: 0 collective calls
// RUN: python3 %S/Inputs/npy.py show %t/out/x.rank2.npy | FileCheck %s --check-prefix=SEVEN
// SEVEN: <f4 (2, 64): 3f800000 x 64, 40e00000 x 64
// Deeper than 64 calls is refused, and said as such (it said "calls itself"
// of a chain of different functions):
// RUN: sed 's/%%total = func.call @sum(%%ws)/%%deep = arith.constant 70 : i64\n  %%total = func.call @sum(%%deep)/' %s > %t/deep.mlir
// RUN: not pld-run %t/deep.mlir --ranks 3 2>&1 | FileCheck %s --check-prefix=DEEP
// With no round at all no task runs, and an --input has nothing to fill
// (it said "the program has no window buffer 'x' (its buffers: )"):
// RUN: sed 's/%%total = func.call @sum(%%ws) : (i64) -> i64/%%total = arith.constant 0 : i64/' %s > %t/none.mlir
// RUN: not pld-run %t/none.mlir --ranks 3 --input x=ones 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: pld-run: error: the program has no window buffer 'x' that a task uses: on 3 devices it runs no kernel and no builtin (its dispatches call none, or their loops run no iteration), so it has no buffer to fill
// DEEP: error: 'func.func' is called more than 64 calls deep (in calls from calls, or in recursion): the simulator interprets orchestrators at most that deep

!T = tensor<2x64xf32, #pld.dist>
!tile = tensor<1x64xf32, #pld.tile>
func.func @kern(%x: !T) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = "pld.tile_load"(%x, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!T, index, index) -> !tile
  %u = "pld.tile_load"(%x, %c1, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!T, index, index) -> !tile
  %s = "pld.tile_add"(%t, %u) : (!tile, !tile) -> !tile
  "pld.tile_store"(%s, %x, %c1, %c0) : (!tile, !T, index, index) -> ()
  return
}
func.func @chip(%x: !T) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @kern(%x) : (!T) -> ()
  return
}
// sum(n) = n + sum(n - 1), sum(0) = 0: it reads %n after its recursive call.
func.func @sum(%n: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %z = arith.cmpi eq, %n, %c0 : i64
  %r = scf.if %z -> i64 {
    scf.yield %c0 : i64
  } else {
    %m = arith.subi %n, %c1 : i64
    %rec = func.call @sum(%m) : (i64) -> i64
    %s = arith.addi %n, %rec : i64
    scf.yield %s : i64
  }
  return %r : i64
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 512 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %b = "pld.tensor_alloc_window_buffer"(%bytes) {name = "x"} : (i64) -> !pld.ptr
  %x = "pld.tensor_window"(%b) : (!pld.ptr) -> !T
  %total = func.call @sum(%ws) : (i64) -> i64
  %reps = arith.index_cast %total : i64 to index
  scf.for %k = %c0 to %reps step %c1 {
    scf.for %r = %c0 to %n step %c1 {
      "pld.dispatch"(%r) ({
        func.call @chip(%x) : (!T) -> ()
        gpu.yield
      }) : (index) -> ()
    }
  }
  return
}
