// A deadlock the explorer finds in a whole program is named as a plain run
// names it: by the task each rank ran (@lopsided, not the HOST entry
// @main) and with the waited-on cell as the program names it (its window
// buffer and [row, col]). Before, the explored report said `rank 1 in
// @main` and had no `waits on` line.
//
// RUN: not pld-run %s --ranks 2 --explore 2 2>&1 | FileCheck %s --check-prefix=EXPLORE
// EXPLORE: schedule 0 (--replay 0): deadlock: no thread of any rank can run
// EXPLORE-NEXT: rank 1 in @lopsided (called at {{.*}}program-explore-deadlock.mlir:30:3 in @chip, dispatched at {{.*}}program-explore-deadlock.mlir:41:5): waits for the i32 cell at rank 1's window
// EXPLORE-NEXT: finished: rank 0
// EXPLORE-NEXT: rank 1 waits on credits at [0, 0], the signal of pld.tensor_barrier in @lopsided at {{.*}}program-explore-deadlock.mlir:[[# @LINE + 14]]:10
// RUN: not pld-run %s --ranks 2 --deadline 0.2 2>&1 | FileCheck %s --check-prefix=PLAIN
// PLAIN: rank 1 in @lopsided (called at {{.*}}program-explore-deadlock.mlir:30:3 in @chip, dispatched at {{.*}}program-explore-deadlock.mlir:41:5): waits for the i32 cell at rank 1's window
// PLAIN: rank 1 waits on credits at [0, 0], the signal of pld.tensor_barrier in @lopsided at

!s = tensor<2x1xi32, #pld.dist>
// Rank 0 leaves without its barrier; rank 1 waits for it for ever.
func.func @lopsided(%sig: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (!s) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %zero = arith.constant 0 : i32
  %first = arith.cmpi eq, %me, %zero : i32
  scf.if %first {
  } else {
    %r = "pld.tensor_barrier"(%sig) : (!s) -> !s
  }
  return
}
func.func @chip(%sig: !s) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @lopsided(%sig) : (!s) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %bytes = arith.constant 8 : i64
  %buffer = "pld.tensor_alloc_window_buffer"(%bytes) {name = "credits"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%buffer) : (!pld.ptr) -> !s
  scf.for %d = %c0 to %c2 step %c1 {
    "pld.dispatch"(%d) ({
      func.call @chip(%sig) : (!s) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}
