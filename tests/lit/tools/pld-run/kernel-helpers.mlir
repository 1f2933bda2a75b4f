// A kernel may call a function without pld.kind (D13 leaves such calls
// alone): convert-pto-to-sim compiles such a helper, and the helpers it
// calls, with the kernels when they hold scalar code. It removed every
// function that was not a kernel, so pld-run failed with "'func.call' op
// 'count' does not reference a valid function" on IR that pld-opt accepts.
//
// RUN: split-file %s %t
// The trip count comes from @count(2) = @twice(2) + 1 = 5, so with y = -1
// the loop's sum is -1 + 5 * -1 = -6 (worked out by hand).
// RUN: python3 %S/../../passes/convert-pld-to-pto/Inputs/npy.py fill %t/y.npy 1,64 -1
// RUN: pld-run %t/scalar.mlir --ranks 1 --input y=%t/y.npy --output-dir %t/out | FileCheck %s --check-prefix=RAN
// RAN: @k on 1 rank: finished
// RUN: python3 %S/../../passes/convert-pld-to-pto/Inputs/npy.py range %t/out/x.rank0.npy | FileCheck %s --check-prefix=NUMBERS
// NUMBERS: -6.0 -6.0
//
// A helper that is only declared, or that holds ops the LLVM lowering does
// not take, is refused at the call or the op:
// RUN: not pld-run %t/declared.mlir --ranks 1 2>&1 | FileCheck %s --check-prefix=DECLARED
// DECLARED: declared.mlir:7:8: error: 'func.call' op calls @count, which is only declared: the simulator compiles what a kernel calls, and needs @count's body
// RUN: not pld-run %t/tiles.mlir --ranks 1 2>&1 | FileCheck %s --check-prefix=TILES
// TILES: tiles.mlir:4:8: error: 'tensor.empty' op is in @scratch, which a kernel calls and which is not a converted kernel: the simulator compiles such helpers when they hold scalar code only (func, arith, math, scf, cf, index, affine ops); give @scratch a pld.kind (#pld.func_kind<"incore">) so that convert-pld-to-pto converts it as a kernel (a kernel returns nothing: give its results back through a tensor parameter)
// Recursion among a kernel's calls is refused at the call that closes the
// cycle (a deep one overflowed the rank's stack: status 134):
// RUN: not pld-run %t/recursive.mlir --ranks 1 2>&1 | FileCheck %s --check-prefix=RECURSIVE
// RECURSIVE: recursive.mlir:17:8: error: 'func.call' op calls @down again from within it (@down -> @odd -> @down): the simulator compiles no recursion among a kernel's calls, which run on the rank's stack (as on a device, where it is small); write it as a loop

// A kernel that another kernel calls with an index is compiled with it and
// not run by itself (pld-run refused the module: "@sub: parameter #2 has
// type index; the simulator passes a kernel tensors only"). Every row of
// dst gets a row of src (ones):
// RUN: pld-run %t/subkernel.mlir --ranks 1 --input src=ones --input dst=zeros --output-dir %t/sub | FileCheck %s --check-prefix=SUB
// SUB: @k on 1 rank: finished
// RUN: python3 %S/../../passes/convert-pld-to-pto/Inputs/npy.py range %t/sub/dst.rank0.npy | FileCheck %s --check-prefix=SUB-NUMBERS
// SUB-NUMBERS: 1.0 1.0
// One that a CHIP orchestrator also runs as a task is still refused (its
// signal, unknown, was filled as data: a deadlock):
// RUN: sed 's|^func.func @k(|func.func @chip(%%a: !p, %%b: !p) attributes {pld.kind = #pld.func_kind<"chip">} {\n  %%c1 = arith.constant 1 : index\n  func.call @sub(%%a, %%b, %%c1) : (!p, !p, index) -> ()\n  return\n}\nfunc.func @k(|' %t/subkernel.mlir > %t/subtask.mlir
// RUN: not pld-run %t/subtask.mlir --ranks 1 --kernel k 2>&1 | FileCheck %s --check-prefix=SUBTASK
// SUBTASK: error: @sub: parameter #2 has type index; the simulator passes a kernel tensors only

//--- scalar.mlir
!p = tensor<1x64xf32, #pld.dist>
!t = tensor<1x64xf32, #pld.tile>
func.func @twice(%n: index) -> index {
  %m = arith.addi %n, %n : index
  return %m : index
}
func.func private @count(%n: index) -> index {
  %c1 = arith.constant 1 : index
  %m = func.call @twice(%n) : (index) -> index
  %r = arith.addi %m, %c1 : index
  return %r : index
}
func.func @k(%x: !p, %y: !p) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = func.call @count(%c2) : (index) -> index
  %t = "pld.tile_load"(%y, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!p, index, index) -> !t
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> (!t) {
    %b = "pld.tile_add"(%a, %t) : (!t, !t) -> !t
    scf.yield %b : !t
  }
  "pld.tile_store"(%sum, %x, %c0, %c0) : (!t, !p, index, index) -> ()
  return
}

//--- declared.mlir
!p = tensor<1x64xf32, #pld.dist>
func.func private @count(index) -> index
func.func @k(%x: !p) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = func.call @count(%c2) : (index) -> index
  return
}

//--- tiles.mlir
!p = tensor<1x64xf32, #pld.dist>
func.func @scratch(%n: index) -> index {
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<4xf32>
  %m = arith.addi %n, %c1 : index
  return %m : index
}
func.func @k(%x: !p) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c2 = arith.constant 2 : index
  %n = func.call @scratch(%c2) : (index) -> index
  return
}

//--- recursive.mlir
!p = tensor<1x64xf32, #pld.dist>
func.func @down(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %stop = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %stop -> index {
    scf.yield %c0 : index
  } else {
    %m = func.call @odd(%n) : (index) -> index
    scf.yield %m : index
  }
  return %r : index
}
func.func @odd(%n: index) -> index {
  %c1 = arith.constant 1 : index
  %m = arith.subi %n, %c1 : index
  %r = func.call @down(%m) : (index) -> index
  return %r : index
}
func.func @k(%x: !p) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c9 = arith.constant 9 : index
  %n = func.call @down(%c9) : (index) -> index
  return
}

//--- subkernel.mlir
!p = tensor<4x64xf32, #pld.dist>
func.func @sub(%src: !p, %dst: !p, %row: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %j = arith.subi %c3, %row : index
  %t = "pld.tile_load"(%src, %j, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!p, index, index) -> tensor<1x64xf32, #pld.tile>
  "pld.tile_store"(%t, %dst, %row, %c0) : (tensor<1x64xf32, #pld.tile>, !p, index, index) -> ()
  return
}
func.func @k(%src: !p, %dst: !p) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    func.call @sub(%src, %dst, %i) : (!p, !p, index) -> ()
  }
  return
}
