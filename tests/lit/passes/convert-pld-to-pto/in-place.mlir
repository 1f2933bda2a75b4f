// convert-pld-to-pto writes an element-wise tile op (pld.tile_add,
// _maximum, _minimum, _mul) over its left operand only when that tile holds
// no value still wanted: made in the same block, read by nothing after the
// op. Otherwise the result gets a tile of its own. Before, the result always
// overwrote the left operand, so `%s = pld.tile_add(%t, %t)` changed %t
// too, and a loop accumulating into a carried tile changed its initial
// value: wrong numbers with exit 0.
//
// RUN: split-file %s %t
// RUN: pld-opt %t/reuse.mlir --pass-pipeline='builtin.module(pld-to-pto)' | FileCheck %s --check-prefix=REUSE
// REUSE-LABEL: func.func @reuse
// REUSE: %[[T:.*]] = "pto.alloc_tile"
// REUSE: "pto.tload"(%{{.*}}, %[[T]])
// REUSE-NOT: pto.alloc_tile
// REUSE: "pto.tadd"(%[[T]], %[[T]], %[[T]])
// REUSE: "pto.tstore"(%[[T]],
//
// RUN: pld-opt %t/kept.mlir --pass-pipeline='builtin.module(pld-to-pto)' | FileCheck %s --check-prefix=KEPT
// KEPT-LABEL: func.func @kept
// KEPT: %[[T:.*]] = "pto.alloc_tile"
// KEPT: "pto.tload"(%{{.*}}, %[[T]])
// KEPT: %[[S:.*]] = "pto.alloc_tile"
// KEPT: "pto.tadd"(%[[T]], %[[T]], %[[S]])
// KEPT: "pto.tmax"(%[[S]], %[[T]], %[[S]])
// KEPT: "pto.tstore"(%[[T]],
// KEPT: "pto.tstore"(%[[S]],
// KEPT: scf.for {{.*}} iter_args(%[[A:.*]] = %[[T]])
// KEPT: %[[B:.*]] = "pto.alloc_tile"
// KEPT: "pto.tadd"(%[[A]], %[[T]], %[[B]])
// KEPT: scf.yield %[[B]]
//
// The numbers, against values worked out by hand: y = -1 on every rank,
// so %t = -1, %s = -2, max(%s, %t) = -1, the loop's sum -1 + 3 * -1 = -4,
// and %t, stored last, still -1.
// RUN: python3 %S/Inputs/npy.py fill %t/y.npy 1,64 -1
// RUN: pld-run %t/kept.mlir --ranks 1 --input y=%t/y.npy --output-dir %t/out | FileCheck %s --check-prefix=RAN
// RAN: @kept on 1 rank: finished
// RUN: python3 %S/Inputs/npy.py range %t/out/x.rank0.npy %t/out/v.rank0.npy %t/out/z.rank0.npy %t/out/w.rank0.npy | FileCheck %s --check-prefix=NUMBERS
// NUMBERS: -1.0 -1.0
// NUMBERS-NEXT: -1.0 -1.0
// NUMBERS-NEXT: -4.0 -4.0
// NUMBERS-NEXT: -1.0 -1.0

//--- reuse.mlir
!p = tensor<1x64xf32, #pld.dist>
!t = tensor<1x64xf32, #pld.tile>
func.func @reuse(%x: !p, %y: !p) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %t = "pld.tile_load"(%y, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!p, index, index) -> !t
  %s = "pld.tile_add"(%t, %t) : (!t, !t) -> !t
  "pld.tile_store"(%s, %x, %c0, %c0) : (!t, !p, index, index) -> ()
  return
}

//--- kept.mlir
!p = tensor<1x64xf32, #pld.dist>
!t = tensor<1x64xf32, #pld.tile>
func.func @kept(%x: !p, %y: !p, %z: !p, %w: !p, %v: !p) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %t = "pld.tile_load"(%y, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!p, index, index) -> !t
  %s = "pld.tile_add"(%t, %t) : (!t, !t) -> !t
  %m = "pld.tile_maximum"(%s, %t) : (!t, !t) -> !t
  "pld.tile_store"(%t, %x, %c0, %c0) : (!t, !p, index, index) -> ()
  "pld.tile_store"(%m, %v, %c0, %c0) : (!t, !p, index, index) -> ()
  %sum = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %t) -> (!t) {
    %b = "pld.tile_add"(%a, %t) : (!t, !t) -> !t
    scf.yield %b : !t
  }
  "pld.tile_store"(%sum, %z, %c0, %c0) : (!t, !p, index, index) -> ()
  "pld.tile_store"(%t, %w, %c0, %c0) : (!t, !p, index, index) -> ()
  return
}
