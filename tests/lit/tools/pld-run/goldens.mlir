// pld-run --check computes each golden as the device computes it, in the
// target's dtype: a copy is compared bit for bit (NaN included), an f16
// overflow is inf, integers wrap around. The message, the golden file
// (--output-dir) and the check agree. The bits below are computed by hand
// (Inputs/npy.py writes and shows .npy files with Python's struct, not
// pld): f32 NaN 0x7fc00001; f16 60000 = 0x7b53, 4 x 60000 = 240000 is past
// f16's largest 65504, so inf = 0x7c00; i8 4 x 100 = 400 = 256 + 144, and
// 144 as i8 is -112 = 0x90; i32 4 x 2^30 = 2^32 wraps to 0.
//
// RUN: split-file %s %t
// RUN: python3 %S/Inputs/npy.py write %t/nan.npy f4 2,8 7fc00001
// RUN: python3 %S/Inputs/npy.py write %t/big.npy f2 4,8 7b53
// RUN: python3 %S/Inputs/npy.py write %t/big1.npy f2 1,16 7b53
// RUN: python3 %S/Inputs/npy.py write %t/hundred.npy i1 4,8 64
// RUN: python3 %S/Inputs/npy.py write %t/two30.npy i4 4,8 40000000
//
// A broadcast of NaN is a copy: every rank holds the root's NaN, bit for
// bit, and so does the golden.
// RUN: rm -rf %t.bcast && pld-run %t/broadcast.mlir --ranks 2 --input t=%t/nan.npy --check --output-dir %t.bcast | FileCheck %s --check-prefix=OK2
// RUN: python3 %S/Inputs/npy.py show %t.bcast/t.rank1.golden.npy | FileCheck %s --check-prefix=NAN
// RUN: cmp %t.bcast/t.rank1.npy %t.bcast/t.rank1.golden.npy
// NAN: <f4 (2, 8): 7fc00001 x 16
// OK2: rank 0: ok (worst error 0.000e0 at element 0)
// OK2-NEXT: rank 1: ok (worst error 0.000e0 at element 0)
//
// An f16 reduce_scatter that overflows: row r of rank r is inf, the other
// rows keep 60000.
// RUN: rm -rf %t.rs16 && pld-run %t/reduce_scatter_f16.mlir --ranks 4 --input t=%t/big.npy --check --output-dir %t.rs16 | FileCheck %s --check-prefix=OK4
// RUN: python3 %S/Inputs/npy.py show %t.rs16/t.rank0.golden.npy | FileCheck %s --check-prefix=INF0
// RUN: python3 %S/Inputs/npy.py show %t.rs16/t.rank2.golden.npy | FileCheck %s --check-prefix=INF2
// RUN: cmp %t.rs16/t.rank2.npy %t.rs16/t.rank2.golden.npy
// INF0: <f2 (4, 8): 7c00 x 8, 7b53 x 24
// INF2: <f2 (4, 8): 7b53 x 16, 7c00 x 8, 7b53 x 8
// OK4: rank 0: ok (worst error 0.000e0 at element 0)
// OK4-NEXT: rank 1: ok (worst error 0.000e0 at element 0)
// OK4-NEXT: rank 2: ok (worst error 0.000e0 at element 0)
// OK4-NEXT: rank 3: ok (worst error 0.000e0 at element 0)
//
// The same overflow in an allreduce: inf everywhere.
// RUN: rm -rf %t.ar16 && pld-run %t/allreduce_f16.mlir --ranks 4 --input d=%t/big1.npy --check --output-dir %t.ar16 | FileCheck %s --check-prefix=OK4
// RUN: python3 %S/Inputs/npy.py show %t.ar16/d.rank3.golden.npy | FileCheck %s --check-prefix=INF
// INF: <f2 (1, 16): 7c00 x 16
//
// Integers wrap around, as the device's vector adds do (allreduce takes
// f16 and f32 only; reduce_scatter is the reduction that takes i8 and i32).
// RUN: rm -rf %t.rs8 && pld-run %t/reduce_scatter_i8.mlir --ranks 4 --input t=%t/hundred.npy --check --output-dir %t.rs8 | FileCheck %s --check-prefix=OK4
// RUN: python3 %S/Inputs/npy.py show %t.rs8/t.rank0.golden.npy | FileCheck %s --check-prefix=I8
// RUN: cmp %t.rs8/t.rank0.npy %t.rs8/t.rank0.golden.npy
// I8: |i1 (4, 8): 90 x 8, 64 x 24
// RUN: rm -rf %t.rs32 && pld-run %t/reduce_scatter_i32.mlir --ranks 4 --input t=%t/two30.npy --check --output-dir %t.rs32 | FileCheck %s --check-prefix=OK4
// RUN: python3 %S/Inputs/npy.py show %t.rs32/t.rank1.golden.npy | FileCheck %s --check-prefix=I32
// RUN: cmp %t.rs32/t.rank1.npy %t.rs32/t.rank1.golden.npy
// I32: <i4 (4, 8): 40000000 x 8, 00000000 x 8, 40000000 x 16
//
// A wrong result names the golden's value as the golden file holds it: the
// same collectives, then a store of zeros over row 0 (on rank 0 the fold
// of an f16 or i8 reduce_scatter, on the others a row kept as it was; a
// copied NaN on every rank of the broadcast). Only a finite float sum has
// a tolerance (none here).
// RUN: rm -rf %t.bad && not pld-run %t/broadcast_bad.mlir --ranks 2 --input t=%t/nan.npy --check --output-dir %t.bad | FileCheck %s --check-prefix=BADNAN
// RUN: python3 %S/Inputs/npy.py show %t.bad/t.rank1.golden.npy | FileCheck %s --check-prefix=NAN
// BADNAN: rank 0: WRONG (worst error inf at element 0)
// BADNAN-NEXT: 8 wrong elements; first: [0, 0] expected NaN (0x7fc00001), got 0; [0, 1] expected NaN (0x7fc00001), got 0;
// RUN: not pld-run %t/reduce_scatter_f16_bad.mlir --ranks 4 --input t=%t/big.npy --check | FileCheck %s --check-prefix=BADINF
// BADINF: rank 0: WRONG (worst error inf at element 0)
// BADINF-NEXT: 8 wrong elements; first: [0, 0] expected inf, got 0; [0, 1] expected inf, got 0;
// BADINF-NEXT: rank 1: WRONG (worst error 6.000e4 at element 0)
// BADINF-NEXT: 8 wrong elements; first: [0, 0] expected 60000, got 0;
// RUN: not pld-run %t/reduce_scatter_i8_bad.mlir --ranks 4 --input t=%t/hundred.npy --check | FileCheck %s --check-prefix=BADI8
// BADI8: rank 0: WRONG (worst error 1.120e2 at element 0)
// BADI8-NEXT: 8 wrong elements; first: [0, 0] expected -112, got 0;
// BADI8-NEXT: rank 1: WRONG (worst error 1.000e2 at element 0)
// BADI8-NEXT: 8 wrong elements; first: [0, 0] expected 100, got 0;

//--- broadcast.mlir
func.func @k(%t: tensor<2x8xf32, #pld.dist>, %s: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_broadcast"(%t, %s) {root = 0 : i64} : (tensor<2x8xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<2x8xf32, #pld.dist>
  return
}

//--- broadcast_bad.mlir
func.func @k(%t: tensor<2x8xf32, #pld.dist>, %s: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_broadcast"(%t, %s) {root = 0 : i64} : (tensor<2x8xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<2x8xf32, #pld.dist>
  %c0 = arith.constant 0 : index
  %z = "pld.tile_create"() : () -> tensor<1x8xf32, #pld.tile>
  "pld.tile_store"(%z, %r, %c0, %c0) : (tensor<1x8xf32, #pld.tile>, tensor<2x8xf32, #pld.dist>, index, index) -> ()
  return
}

//--- reduce_scatter_f16.mlir
func.func @k(%t: tensor<4x8xf16, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_reduce_scatter"(%t, %s) {op = #pld.reduce_op<"sum">} : (tensor<4x8xf16, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<4x8xf16, #pld.dist>
  return
}

//--- reduce_scatter_f16_bad.mlir
func.func @k(%t: tensor<4x8xf16, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_reduce_scatter"(%t, %s) {op = #pld.reduce_op<"sum">} : (tensor<4x8xf16, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<4x8xf16, #pld.dist>
  %c0 = arith.constant 0 : index
  %z = "pld.tile_create"() : () -> tensor<1x8xf16, #pld.tile>
  "pld.tile_store"(%z, %r, %c0, %c0) : (tensor<1x8xf16, #pld.tile>, tensor<4x8xf16, #pld.dist>, index, index) -> ()
  return
}

//--- allreduce_f16.mlir
func.func @k(%d: tensor<1x16xf16, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">} : (tensor<1x16xf16, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x16xf16, #pld.dist>
  return
}

//--- reduce_scatter_i8.mlir
func.func @k(%t: tensor<4x8xi8, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_reduce_scatter"(%t, %s) {op = #pld.reduce_op<"sum">} : (tensor<4x8xi8, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<4x8xi8, #pld.dist>
  return
}

//--- reduce_scatter_i8_bad.mlir
func.func @k(%t: tensor<4x8xi8, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_reduce_scatter"(%t, %s) {op = #pld.reduce_op<"sum">} : (tensor<4x8xi8, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<4x8xi8, #pld.dist>
  %c0 = arith.constant 0 : index
  %z = "pld.tile_create"() : () -> tensor<1x8xi8, #pld.tile>
  "pld.tile_store"(%z, %r, %c0, %c0) : (tensor<1x8xi8, #pld.tile>, tensor<4x8xi8, #pld.dist>, index, index) -> ()
  return
}

//--- reduce_scatter_i32.mlir
func.func @k(%t: tensor<4x8xi32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_reduce_scatter"(%t, %s) {op = #pld.reduce_op<"sum">} : (tensor<4x8xi32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<4x8xi32, #pld.dist>
  return
}
