// A HOST orchestrator whose loop would plan a billion dispatches is
// refused at the dispatch past the limit (PLD_MAX_DISPATCHES, default
// 1000000) instead of growing the plan until the machine runs out of
// memory; a value of the variable that is not a count is refused before
// the run. Up to the limit the program runs.
//
// RUN: split-file %s %t
// RUN: env PLD_MAX_DISPATCHES=10 not pld-run %t/many.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=LIMIT
// LIMIT: many.mlir:6:3: error: 'func.call' goes past the limit of 10 dispatches in one run (kernel calls and builtins over 2 devices; PLD_MAX_DISPATCHES sets it): is a loop bound larger than meant?
// LIMIT-NEXT: {{^}}  func.call @k(%s) : (!sig) -> ()
// RUN: env PLD_MAX_DISPATCHES=0 not pld-run %t/many.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: env PLD_MAX_DISPATCHES=lots not pld-run %t/many.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=BAD
// Digits only, as PLD_CACHE_MAX_BYTES reads its number (a space or a sign
// was taken):
// RUN: env PLD_MAX_DISPATCHES=+1 not pld-run %t/many.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: env 'PLD_MAX_DISPATCHES= 1' not pld-run %t/many.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: pld-run: error: PLD_MAX_DISPATCHES={{0|lots|\+1| 1}}: say how many kernel and builtin dispatches one run of a HOST program may plan (a whole number from 1 to 1000000000; unset: 1000000)
// A loop that dispatches to a CHIP orchestrator submitting nothing, and one
// that dispatches nothing, end too (they were interpreted until
// --time-limit: a bound of 10^12 took hours):
// RUN: env PLD_MAX_DISPATCHES=10 not pld-run %t/empty.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: empty.mlir:9:5: error: 'pld.dispatch' goes past the limit of 10 dispatches in one run (pld.dispatch round trips over 2 devices; PLD_MAX_DISPATCHES sets it): is a loop bound larger than meant?
// RUN: env PLD_MAX_DISPATCHES=10 not pld-run %t/idle.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=IDLE
// IDLE: idle.mlir:10:3: error: 'scf.for' goes past 160 iterations of the orchestrators' loops in one run (16 times the limit of 10 dispatches; PLD_MAX_DISPATCHES sets it): is a loop bound larger than meant?
// A HOST collective's dispatches are named by the op written, at whose
// line the caret is (it said 'pld.builtin_allreduce', an op of the
// lowering):
// RUN: env PLD_MAX_DISPATCHES=10 not pld-run %t/builtin.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=BUILTIN
// BUILTIN: builtin.mlir:11:10: error: 'pld.tensor_allreduce' (as pld.builtin_allreduce) goes past the limit of 10 dispatches in one run
// Five rounds on two devices are ten dispatches: within a limit of 10.
// RUN: env PLD_MAX_DISPATCHES=10 pld-run %t/five.mlir --ranks 2 | FileCheck %s --check-prefix=FITS
// FITS: @main on 2 devices: 0 collective calls, finished in
// A limit of one dispatch is singular:
// RUN: env PLD_MAX_DISPATCHES=1 not pld-run %t/many.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=ONE
// ONE: error: 'func.call' goes past the limit of 1 dispatch in one run

//--- many.mlir
!sig = tensor<8x1xi32, #pld.dist>
func.func @k(%s: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}
func.func @chip(%s: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @k(%s) : (!sig) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1000000000 : index
  %ws = "pld.system_world_size"() : () -> i64
  %devices = arith.index_cast %ws : i64 to index
  %sb = arith.constant 32 : i64
  %sbuf = "pld.tensor_alloc_window_buffer"(%sb) {name = "s"} : (i64) -> !pld.ptr
  %s = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> !sig
  scf.for %i = %c0 to %n step %c1 {
    scf.for %r = %c0 to %devices step %c1 {
      "pld.dispatch"(%r) ({
        func.call @chip(%s) : (!sig) -> ()
        gpu.yield
      }) : (index) -> ()
    }
  }
  return
}

//--- five.mlir
!sig = tensor<8x1xi32, #pld.dist>
func.func @k(%s: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}
func.func @chip(%s: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @k(%s) : (!sig) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 5 : index
  %ws = "pld.system_world_size"() : () -> i64
  %devices = arith.index_cast %ws : i64 to index
  %sb = arith.constant 32 : i64
  %sbuf = "pld.tensor_alloc_window_buffer"(%sb) {name = "s"} : (i64) -> !pld.ptr
  %s = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> !sig
  scf.for %i = %c0 to %n step %c1 {
    scf.for %r = %c0 to %devices step %c1 {
      "pld.dispatch"(%r) ({
        func.call @chip(%s) : (!sig) -> ()
        gpu.yield
      }) : (index) -> ()
    }
  }
  return
}

//--- empty.mlir
func.func @chip() attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %many = arith.constant 1000000000000 : index
  scf.for %i = %c0 to %many step %c1 {
    "pld.dispatch"(%c0) ({
      func.call @chip() : () -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}

//--- idle.mlir
!sig = tensor<2x1xi32, #pld.dist>
func.func @chip() attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %many = arith.constant 1000000000000 : index
  "pld.dispatch"(%c0) ({ func.call @chip() : () -> () gpu.yield }) : (index) -> ()
  scf.for %i = %c0 to %many step %c1 {
    %x = arith.addi %i, %c1 : index
  }
  return
}

//--- builtin.mlir
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 100 : index
  %bytes = arith.constant 256 : i64
  %b = "pld.tensor_alloc_window_buffer"(%bytes) {name = "x"} : (i64) -> !pld.ptr
  %sb = "pld.tensor_alloc_window_buffer"(%bytes) {name = "s"} : (i64) -> !pld.ptr
  %x = "pld.tensor_window"(%b) : (!pld.ptr) -> tensor<1x64xf32, #pld.dist>
  %s = "pld.tensor_window"(%sb) : (!pld.ptr) -> tensor<2x1xi32, #pld.dist>
  scf.for %i = %c0 to %n step %c1 {
    %r = "pld.tensor_allreduce"(%x, %s) {op = #pld.reduce_op<"sum">} : (tensor<1x64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  }
  return
}
