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

// Tiles chosen by branches and selects, and the ops that change their tile
// (set_validshape, fill-pad), against values worked out by hand, with
// t = -1, h = 0.5, o7 filled with 0 and o8 with 7 before the run:
// - (p, q) <- if true then (q, p) else (p, q), once from (t, h): (0.5, -1);
//   the branch's results share the carry buffers, and the second copy back
//   read the first's (o2 gave 0.5);
// - (p, q) <- if true then (p + h, p) else (p, q), once from (t, t):
//   (-0.5, -1) (o4 gave -0.5);
// - arith.select true, h, t: 0.5 (refused: 'arith.select' op failed to
//   verify that all of {true_value, false_value, result} have same type);
// - h stored whole after set_validshape(h, 1, 3) is stored: 0.5 in all 64
//   elements (3 were stored, the rest kept 0);
// - a 1x3 load of t stored after its fill-pad: -1 in 3 elements, 7 in the
//   rest (the padding's zeros were stored over them).
// RUN: python3 %S/Inputs/npy.py fill %t/seven.npy 1,64 7
// RUN: python3 %S/Inputs/npy.py fill %t/zero.npy 1,64 0
// RUN: pld-run %t/branches.mlir --ranks 1 --input tin=%t/y.npy --input hin=%t/h.npy --input o7=%t/zero.npy --input o8=%t/seven.npy --output-dir %t/branches > /dev/null
// RUN: python3 %S/Inputs/npy.py range %t/branches/o1.rank0.npy %t/branches/o2.rank0.npy %t/branches/o3.rank0.npy %t/branches/o4.rank0.npy %t/branches/o5.rank0.npy %t/branches/o6.rank0.npy %t/branches/o7.rank0.npy %t/branches/o8.rank0.npy | FileCheck %s --check-prefix=BRANCHES
// BRANCHES: 0.5 0.5
// BRANCHES-NEXT: -1.0 -1.0
// BRANCHES-NEXT: -0.5 -0.5
// BRANCHES-NEXT: -1.0 -1.0
// BRANCHES-NEXT: 0.5 0.5
// BRANCHES-NEXT: 0.5 0.5
// BRANCHES-NEXT: 0.0 0.5
// BRANCHES-NEXT: -1.0 7.0
// Loops that move tiles between slots, with t = -1, h = 0.5, o1 and o2
// filled with 0:
// - an scf.while whose condition passes a new tile and moves a carried
//   one to another slot, (p, q) <- (p + q, p) once more in the condition:
//   2t + h = -1.5 and t + h = -0.5 (the copy back of the new tile
//   overwrote p's buffer, which slot 1 then yielded);
// - set_validshape, in a loop, of a tile made before it: the next
//   iteration adds the whole tile, h + 2t = -1.5 in all 64 elements (from
//   the second iteration the tile was 1x2, and o1 got 2 elements).
// RUN: pld-run %t/moves.mlir --ranks 1 --input tin=%t/y.npy --input hin=%t/h.npy --input o1=%t/zero.npy --input o2=%t/zero.npy --input o3=%t/zero.npy --input o4=%t/zero.npy --output-dir %t/moves > /dev/null
// RUN: python3 %S/Inputs/npy.py range %t/moves/o1.rank0.npy %t/moves/o2.rank0.npy %t/moves/o3.rank0.npy %t/moves/o4.rank0.npy | FileCheck %s --check-prefix=MOVES
// MOVES: -1.5 -1.5
// MOVES-NEXT: -0.5 -0.5
// MOVES-NEXT: -1.5 -1.5
// MOVES-NEXT: -1.0 0.0
// The copies: set_validshape and fill-pad change a copy of a tile read
// after them.
// RUN: pld-opt %t/branches.mlir --pass-pipeline='builtin.module(pld-to-pto)' | FileCheck %s --check-prefix=CHANGED
// CHANGED: %[[T:.*]] = "pto.alloc_tile"
// CHANGED: "pto.tload"(%{{.*}}, %[[T]])
// CHANGED: %[[H:.*]] = "pto.alloc_tile"
// CHANGED: "pto.tload"(%{{.*}}, %[[H]])
// CHANGED: arith.select %{{.*}}, %[[H]], %[[T]] : !pto.tile_buf
// CHANGED: %[[HC:.*]] = "pto.alloc_tile"
// CHANGED-NEXT: "pto.tmax"(%[[H]], %[[H]], %[[HC]])
// CHANGED-NEXT: "pto.set_validshape"(%[[HC]],
// CHANGED: "pto.tstore"(%[[HC]],
// CHANGED: "pto.tstore"(%[[H]],
// CHANGED: %[[L:.*]] = "pto.alloc_tile"
// CHANGED: "pto.tload"(%{{.*}}, %[[L]])
// CHANGED: %[[LC:.*]] = "pto.alloc_tile"
// CHANGED-NEXT: "pto.tmax"(%[[L]], %[[L]], %[[LC]])
// CHANGED-NEXT: "pto.tfillpad_inplace"(%[[LC]], %[[LC]])
// CHANGED: "pto.tstore"(%[[L]],

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

//--- branches.mlir
!p = tensor<1x64xf32, #pld.dist>
!t = tensor<1x64xf32, #pld.tile>
!v = tensor<1x64xf32, #pld.tile_with<{valid_shape = array<i64: 1, 3>}>>
func.func @branches(%tin: !p, %hin: !p, %o1: !p, %o2: !p, %o3: !p, %o4: !p, %o5: !p, %o6: !p, %o7: !p, %o8: !p) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %yes = arith.constant true
  %t = "pld.tile_load"(%tin, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!p, index, index) -> !t
  %h = "pld.tile_load"(%hin, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!p, index, index) -> !t
  %r:2 = scf.for %i = %c0 to %c1 step %c1 iter_args(%p = %t, %q = %h) -> (!t, !t) {
    %v:2 = scf.if %yes -> (!t, !t) {
      scf.yield %q, %p : !t, !t
    } else {
      scf.yield %p, %q : !t, !t
    }
    scf.yield %v#0, %v#1 : !t, !t
  }
  "pld.tile_store"(%r#0, %o1, %c0, %c0) : (!t, !p, index, index) -> ()
  "pld.tile_store"(%r#1, %o2, %c0, %c0) : (!t, !p, index, index) -> ()
  %w:2 = scf.for %i = %c0 to %c1 step %c1 iter_args(%p = %t, %q = %t) -> (!t, !t) {
    %v:2 = scf.if %yes -> (!t, !t) {
      %s = "pld.tile_add"(%p, %h) : (!t, !t) -> !t
      scf.yield %s, %p : !t, !t
    } else {
      scf.yield %p, %q : !t, !t
    }
    scf.yield %v#0, %v#1 : !t, !t
  }
  "pld.tile_store"(%w#0, %o3, %c0, %c0) : (!t, !p, index, index) -> ()
  "pld.tile_store"(%w#1, %o4, %c0, %c0) : (!t, !p, index, index) -> ()
  %s = arith.select %yes, %h, %t : !t
  "pld.tile_store"(%s, %o5, %c0, %c0) : (!t, !p, index, index) -> ()
  %n = "pld.tile_set_validshape"(%h, %c1, %c3) : (!t, index, index) -> !v
  "pld.tile_store"(%n, %o7, %c0, %c0) : (!v, !p, index, index) -> ()
  "pld.tile_store"(%h, %o6, %c0, %c0) : (!t, !p, index, index) -> ()
  %l = "pld.tile_load"(%tin, %c0, %c0, %c1, %c3) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!p, index, index, index, index) -> !v
  %f = "pld.tile_fillpad"(%l) : (!v) -> !t
  "pld.tile_store"(%l, %o8, %c0, %c0) : (!v, !p, index, index) -> ()
  return
}

//--- moves.mlir
!p = tensor<1x64xf32, #pld.dist>
!t = tensor<1x64xf32, #pld.tile>
!v = tensor<1x64xf32, #pld.tile_with<{valid_shape = array<i64: 1, 2>}>>
func.func @moves(%tin: !p, %hin: !p, %o1: !p, %o2: !p, %o3: !p, %o4: !p) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %t = "pld.tile_load"(%tin, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!p, index, index) -> !t
  %h = "pld.tile_load"(%hin, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!p, index, index) -> !t
  %r:3 = scf.while (%k = %c0, %p = %t, %q = %h) : (index, !t, !t) -> (index, !t, !t) {
    %s = "pld.tile_add"(%p, %q) : (!t, !t) -> !t
    %go = arith.cmpi ult, %k, %c1 : index
    scf.condition(%go) %k, %s, %p : index, !t, !t
  } do {
  ^bb0(%k1: index, %p1: !t, %q1: !t):
    %k2 = arith.addi %k1, %c1 : index
    scf.yield %k2, %p1, %q1 : index, !t, !t
  }
  "pld.tile_store"(%r#1, %o1, %c0, %c0) : (!t, !p, index, index) -> ()
  "pld.tile_store"(%r#2, %o2, %c0, %c0) : (!t, !p, index, index) -> ()
  %a = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %h) -> (!t) {
    %sum = "pld.tile_add"(%t, %acc) : (!t, !t) -> !t
    %n = "pld.tile_set_validshape"(%t, %c1, %c2) : (!t, index, index) -> !v
    "pld.tile_store"(%n, %o4, %c0, %c0) : (!v, !p, index, index) -> ()
    scf.yield %sum : !t
  }
  "pld.tile_store"(%a, %o3, %c0, %c0) : (!t, !p, index, index) -> ()
  return
}
