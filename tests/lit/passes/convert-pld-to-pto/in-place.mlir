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
// The loop's initial tile %t is read again after it: the loop carries a
// copy of it (pto.tmax of %t with itself), its carry buffer, and the
// accumulator adds into that in place.
// KEPT: %[[C:.*]] = "pto.alloc_tile"
// KEPT: "pto.tmax"(%[[T]], %[[T]], %[[C]])
// KEPT: scf.for {{.*}} iter_args(%[[A:.*]] = %[[C]])
// KEPT-NEXT: "pto.tadd"(%[[A]], %[[T]], %[[A]])
// KEPT-NEXT: scf.yield %[[A]]
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

// Loops whose carried tiles share buffers, against values worked out by
// hand, with t = -1 and h = 0.5 (3 iterations each):
// - a sum and a max both started from t: -4 and -1;
// - acc <- (acc + h) * acc from t: 0.5 (a new tile made in the body is one
//   buffer in every iteration; reading acc after it was written gave 1);
// - (p, q) <- (q, p + q) from (t, h): (0, -0.5), and t and h stored after
//   the loop still -1 and 0.5;
// - a loop that yields t, defined before it, while adding into its carried
//   tile: its result and t after it are -1.
// RUN: python3 %S/Inputs/npy.py fill %t/h.npy 1,64 0.5
// RUN: pld-run %t/loops.mlir --ranks 1 --input tin=%t/y.npy --input hin=%t/h.npy --output-dir %t/loops | FileCheck %s --check-prefix=LOOPS-RAN
// LOOPS-RAN: @loops on 1 rank: finished
// RUN: python3 %S/Inputs/npy.py range %t/loops/o1.rank0.npy %t/loops/o2.rank0.npy %t/loops/o3.rank0.npy %t/loops/o4.rank0.npy %t/loops/o5.rank0.npy %t/loops/o6.rank0.npy %t/loops/o7.rank0.npy %t/loops/o8.rank0.npy %t/loops/o9.rank0.npy | FileCheck %s --check-prefix=LOOPS
// LOOPS: -4.0 -4.0
// LOOPS-NEXT: -1.0 -1.0
// LOOPS-NEXT: 0.5 0.5
// LOOPS-NEXT: 0.0 0.0
// LOOPS-NEXT: -0.5 -0.5
// LOOPS-NEXT: -1.0 -1.0
// LOOPS-NEXT: 0.5 0.5
// LOOPS-NEXT: -1.0 -1.0
// LOOPS-NEXT: -1.0 -1.0
// The same acc <- (acc + h) * acc in an scf.while: 0.5 (it gave 2.25).
// RUN: pld-run %t/while.mlir --ranks 1 --input tin=%t/y.npy --input hin=%t/h.npy --output-dir %t/while > /dev/null
// RUN: python3 %S/Inputs/npy.py range %t/while/o.rank0.npy | FileCheck %s --check-prefix=WHILE
// WHILE: 0.5 0.5

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

//--- loops.mlir
!p = tensor<1x64xf32, #pld.dist>
!t = tensor<1x64xf32, #pld.tile>
func.func @loops(%tin: !p, %hin: !p, %o1: !p, %o2: !p, %o3: !p, %o4: !p, %o5: !p, %o6: !p, %o7: !p, %o8: !p, %o9: !p) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %t = "pld.tile_load"(%tin, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!p, index, index) -> !t
  %h = "pld.tile_load"(%hin, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!p, index, index) -> !t
  %sum, %max = scf.for %i = %c0 to %c3 step %c1 iter_args(%s = %t, %m = %t) -> (!t, !t) {
    %s2 = "pld.tile_add"(%s, %t) : (!t, !t) -> !t
    %m2 = "pld.tile_maximum"(%m, %t) : (!t, !t) -> !t
    scf.yield %s2, %m2 : !t, !t
  }
  "pld.tile_store"(%sum, %o1, %c0, %c0) : (!t, !p, index, index) -> ()
  "pld.tile_store"(%max, %o2, %c0, %c0) : (!t, !p, index, index) -> ()
  %acc = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %t) -> (!t) {
    %b = "pld.tile_add"(%a, %h) : (!t, !t) -> !t
    %c = "pld.tile_mul"(%b, %a) : (!t, !t) -> !t
    scf.yield %c : !t
  }
  "pld.tile_store"(%acc, %o3, %c0, %c0) : (!t, !p, index, index) -> ()
  %p, %q = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %t, %y = %h) -> (!t, !t) {
    %z = "pld.tile_add"(%x, %y) : (!t, !t) -> !t
    scf.yield %y, %z : !t, !t
  }
  "pld.tile_store"(%p, %o4, %c0, %c0) : (!t, !p, index, index) -> ()
  "pld.tile_store"(%q, %o5, %c0, %c0) : (!t, !p, index, index) -> ()
  "pld.tile_store"(%t, %o6, %c0, %c0) : (!t, !p, index, index) -> ()
  "pld.tile_store"(%h, %o7, %c0, %c0) : (!t, !p, index, index) -> ()
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %t) -> (!t) {
    %s = "pld.tile_add"(%a, %h) : (!t, !t) -> !t
    scf.yield %t : !t
  }
  "pld.tile_store"(%r, %o8, %c0, %c0) : (!t, !p, index, index) -> ()
  "pld.tile_store"(%t, %o9, %c0, %c0) : (!t, !p, index, index) -> ()
  return
}

//--- while.mlir
!p = tensor<1x64xf32, #pld.dist>
!t = tensor<1x64xf32, #pld.tile>
func.func @wh(%tin: !p, %hin: !p, %o: !p) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %t = "pld.tile_load"(%tin, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!p, index, index) -> !t
  %h = "pld.tile_load"(%hin, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!p, index, index) -> !t
  %r:2 = scf.while (%i = %c0, %a = %t) : (index, !t) -> (index, !t) {
    %go = arith.cmpi slt, %i, %c3 : index
    scf.condition(%go) %i, %a : index, !t
  } do {
  ^bb0(%j: index, %b: !t):
    %s = "pld.tile_add"(%b, %h) : (!t, !t) -> !t
    %m = "pld.tile_mul"(%s, %b) : (!t, !t) -> !t
    %n = arith.addi %j, %c1 : index
    scf.yield %n, %m : index, !t
  }
  "pld.tile_store"(%r#1, %o, %c0, %c0) : (!t, !p, index, index) -> ()
  return
}
