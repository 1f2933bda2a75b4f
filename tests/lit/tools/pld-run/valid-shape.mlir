// pld-run --check honours a target's valid_shape (`#pld.dist_with<{valid_shape
// = ...}>`): a composite allreduce reduces the valid elements (the box
// [0, v0) x [0, v1) x ...) and leaves the others as they were on each rank
// (docs/passes/pld-lower-composite-ops.md), and so does the golden: inside
// the box the fold, outside it the rank's own input, compared bit for bit.
// Rank r's data is all 1, 2, 4 on 3 ranks (f32 0x3f800000, 0x40000000,
// 0x40800000; f16 0x3c00, 0x4000, 0x4400), so a reduced element is 7
// (0x40e00000; f16 0x4700). A golden that reduced the whole target would
// expect 7 outside the box too.
//
// RUN: split-file %s %t
// RUN: python3 %S/Inputs/npy.py write %t/a0.npy f4 4,8 3f800000
// RUN: python3 %S/Inputs/npy.py write %t/a1.npy f4 4,8 40000000
// RUN: python3 %S/Inputs/npy.py write %t/a2.npy f4 4,8 40800000
// RUN: python3 %S/Inputs/npy.py write %t/h0.npy f2 1,64 3c00
// RUN: python3 %S/Inputs/npy.py write %t/h1.npy f2 1,64 4000
// RUN: python3 %S/Inputs/npy.py write %t/h2.npy f2 1,64 4400
//
// The mesh's partial-valid path: a [2, 4] box of a [4, 8] target, rows 0
// and 1, columns 0 to 3.
// RUN: rm -rf %t.box && pld-run %t/box.mlir --ranks 3 --input 'd=%t/a{rank}.npy' --check --output-dir %t.box | FileCheck %s --check-prefix=OK
// RUN: python3 %S/Inputs/npy.py show %t.box/d.rank1.golden.npy | FileCheck %s --check-prefix=BOX
// RUN: cmp %t.box/d.rank1.npy %t.box/d.rank1.golden.npy
// BOX: <f4 (4, 8): 40e00000 x 4, 40000000 x 4, 40e00000 x 4, 40000000 x 20
// OK: rank 0: ok (worst error 0.000e0 at element 0)
// OK-NEXT: rank 1: ok (worst error 0.000e0 at element 0)
// OK-NEXT: rank 2: ok (worst error 0.000e0 at element 0)
//
// A one-column box, [3, 1] (column 0 of rows 0 to 2), is a column-major
// tile (the pass emitted a row-major one, which the remote load's verifier
// refused: "result tile blayout must be col_major for this source").
// RUN: rm -rf %t.col && pld-run %t/column.mlir --ranks 3 --input 'd=%t/a{rank}.npy' --check --output-dir %t.col | FileCheck %s --check-prefix=OK
// RUN: python3 %S/Inputs/npy.py show %t.col/d.rank1.npy | FileCheck %s --check-prefix=COLUMN
// RUN: cmp %t.col/d.rank1.npy %t.col/d.rank1.golden.npy
// COLUMN: <f4 (4, 8): 40e00000 x 1, 40000000 x 7, 40e00000 x 1, 40000000 x 7, 40e00000 x 1, 40000000 x 15
//
// The ring and two-shot take a contiguous row-major prefix: rows 0 and 1
// of [4, 8]; 40 of [1, 64] in f16 (two-shot segments [0, 16), [16, 32),
// [32, 40)).
// RUN: rm -rf %t.ring && pld-run %t/ring.mlir --ranks 3 --input 'd=%t/a{rank}.npy' --check --output-dir %t.ring | FileCheck %s --check-prefix=OK
// RUN: python3 %S/Inputs/npy.py show %t.ring/d.rank2.golden.npy | FileCheck %s --check-prefix=RING
// RUN: cmp %t.ring/d.rank2.npy %t.ring/d.rank2.golden.npy
// RING: <f4 (4, 8): 40e00000 x 16, 40800000 x 16
// RUN: rm -rf %t.two && pld-run %t/two_shot.mlir --ranks 3 --input 'd=%t/h{rank}.npy' --check --output-dir %t.two | FileCheck %s --check-prefix=OK
// RUN: python3 %S/Inputs/npy.py show %t.two/d.rank0.golden.npy | FileCheck %s --check-prefix=TWO
// RUN: cmp %t.two/d.rank0.npy %t.two/d.rank0.golden.npy
// TWO: <f2 (1, 64): 4700 x 40, 3c00 x 24
//
// Outside the box an element is a copy: a kernel that overwrites row 3
// after the allreduce is wrong on every rank, bit for bit.
// RUN: not pld-run %t/box_bad.mlir --ranks 3 --input 'd=%t/a{rank}.npy' --check | FileCheck %s --check-prefix=BAD
// BAD: rank 0: WRONG (worst error 1.000e0 at element 24)
// BAD-NEXT: 8 wrong elements; first: [3, 0] expected 1, got 0;
// BAD: rank 2: WRONG (worst error 4.000e0 at element 24)
// BAD-NEXT: 8 wrong elements; first: [3, 0] expected 4, got 0;
// The kernel's own store into the target is named as a possible cause:
// BAD: note: @k also writes the target of its pld.tensor_allreduce (pld.tile_store at {{.*}}box_bad.mlir:6:3): the difference may be the kernel's own, not the collective's

//--- box.mlir
func.func @k(%d: tensor<4x8xf32, #pld.dist_with<{valid_shape = array<i64: 2, 4>}>>, %s: tensor<3x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">} : (tensor<4x8xf32, #pld.dist_with<{valid_shape = array<i64: 2, 4>}>>, tensor<3x1xi32, #pld.dist>) -> tensor<4x8xf32, #pld.dist_with<{valid_shape = array<i64: 2, 4>}>>
  return
}

//--- column.mlir
func.func @k(%d: tensor<4x8xf32, #pld.dist_with<{valid_shape = array<i64: 3, 1>}>>, %s: tensor<3x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">} : (tensor<4x8xf32, #pld.dist_with<{valid_shape = array<i64: 3, 1>}>>, tensor<3x1xi32, #pld.dist>) -> tensor<4x8xf32, #pld.dist_with<{valid_shape = array<i64: 3, 1>}>>
  return
}

//--- box_bad.mlir
func.func @k(%d: tensor<4x8xf32, #pld.dist_with<{valid_shape = array<i64: 2, 4>}>>, %s: tensor<3x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">} : (tensor<4x8xf32, #pld.dist_with<{valid_shape = array<i64: 2, 4>}>>, tensor<3x1xi32, #pld.dist>) -> tensor<4x8xf32, #pld.dist_with<{valid_shape = array<i64: 2, 4>}>>
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %z = "pld.tile_create"() : () -> tensor<1x8xf32, #pld.tile>
  "pld.tile_store"(%z, %r, %c3, %c0) : (tensor<1x8xf32, #pld.tile>, tensor<4x8xf32, #pld.dist_with<{valid_shape = array<i64: 2, 4>}>>, index, index) -> ()
  return
}

//--- ring.mlir
func.func @k(%d: tensor<4x8xf32, #pld.dist_with<{valid_shape = array<i64: 2, 8>}>>, %s: tensor<4x3xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "ring"} : (tensor<4x8xf32, #pld.dist_with<{valid_shape = array<i64: 2, 8>}>>, tensor<4x3xi32, #pld.dist>) -> tensor<4x8xf32, #pld.dist_with<{valid_shape = array<i64: 2, 8>}>>
  return
}

//--- two_shot.mlir
func.func @k(%d: tensor<1x64xf16, #pld.dist_with<{valid_shape = array<i64: 1, 40>}>>, %s: tensor<3x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "two_shot"} : (tensor<1x64xf16, #pld.dist_with<{valid_shape = array<i64: 1, 40>}>>, tensor<3x1xi32, #pld.dist>) -> tensor<1x64xf16, #pld.dist_with<{valid_shape = array<i64: 1, 40>}>>
  return
}
