// An affine.for in a kernel: the simulator lowers it (lower-affine before
// the LLVM lowering; it failed with "lowering to LLVM failed: 'affine.for'
// op expects region #0 to have 0 or 1 blocks"). One that carries a tile is
// refused by convert-pld-to-pto, which carries tiles through scf only (it
// failed on a pto op given a tensor).
//
// RUN: split-file %s %t
// y = -1 doubled in place three times: -8 (worked out by hand).
// RUN: python3 %S/../../passes/convert-pld-to-pto/Inputs/npy.py fill %t/y.npy 1,64 -1
// RUN: pld-run %t/loop.mlir --ranks 1 --input y=%t/y.npy --output-dir %t/out | FileCheck %s --check-prefix=RAN
// RAN: @k on 1 rank: finished
// RUN: python3 %S/../../passes/convert-pld-to-pto/Inputs/npy.py range %t/out/y.rank0.npy | FileCheck %s --check-prefix=NUMBERS
// NUMBERS: -8.0 -8.0
//
// RUN: not pld-run %t/carried.mlir --ranks 1 2>&1 | FileCheck %s --check-prefix=CARRIED
// CARRIED: carried.mlir:6:10: error: 'affine.for' op carries a tensor<1x64xf32, #pld.tile> value: convert-pld-to-pto carries tiles through scf ops (scf.for, scf.while, scf.if, scf.index_switch) and arith.select only; write this control flow with scf
// RUN: not pld-opt %t/branch.mlir --pass-pipeline='builtin.module(pld-to-pto)' 2>&1 | FileCheck %s --check-prefix=BRANCH
// BRANCH: branch.mlir:6:3: error: 'cf.br' op carries a tensor<1x64xf32, #pld.tile> value
// A kernel's tensor passed to a block is told apart (arith.select of two
// tensors, which the tile advice named, is refused too):
// RUN: not pld-opt %t/tensor.mlir --pass-pipeline='builtin.module(pld-to-pto)' 2>&1 | FileCheck %s --check-prefix=TENSOR
// TENSOR: tensor.mlir:3:3: error: 'cf.cond_br' op carries a tensor<1x64xf32, #pld.dist> value: convert-pld-to-pto gives a kernel's tensors (its parameters and views of them) their pointers through scf ops only, the same tensor on every path; use the tensor itself where it is needed instead of passing it on

//--- loop.mlir
!p = tensor<1x64xf32, #pld.dist>
!t = tensor<1x64xf32, #pld.tile>
func.func @k(%y: !p) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  affine.for %i = 0 to 3 {
    %t = "pld.tile_load"(%y, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!p, index, index) -> !t
    %s = "pld.tile_add"(%t, %t) : (!t, !t) -> !t
    "pld.tile_store"(%s, %y, %c0, %c0) : (!t, !p, index, index) -> ()
  }
  return
}

//--- carried.mlir
!p = tensor<1x64xf32, #pld.dist>
!t = tensor<1x64xf32, #pld.tile>
func.func @k(%x: !p, %y: !p) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %t = "pld.tile_load"(%y, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!p, index, index) -> !t
  %sum = affine.for %i = 0 to 3 iter_args(%a = %t) -> (!t) {
    %b = "pld.tile_add"(%a, %t) : (!t, !t) -> !t
    affine.yield %b : !t
  }
  "pld.tile_store"(%sum, %x, %c0, %c0) : (!t, !p, index, index) -> ()
  return
}

//--- branch.mlir
!p = tensor<1x64xf32, #pld.dist>
!t = tensor<1x64xf32, #pld.tile>
func.func @k(%x: !p, %y: !p) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %t = "pld.tile_load"(%y, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!p, index, index) -> !t
  cf.br ^next(%t : !t)
^next(%u: !t):
  "pld.tile_store"(%u, %x, %c0, %c0) : (!t, !p, index, index) -> ()
  return
}

//--- tensor.mlir
!p = tensor<1x64xf32, #pld.dist>
func.func @k(%x: !p, %y: !p, %c: i1) attributes {pld.kind = #pld.func_kind<"incore">} {
  cf.cond_br %c, ^use(%x : !p), ^use(%y : !p)
^use(%u: !p):
  return
}
