// A max or min of floats is NaN when either operand is NaN, and -0 is
// below +0 (IEEE 754-2019 maximum / minimum, as the InCore rail's
// arith.maximumf and the goldens): on every rail. The HOST builtins'
// fold returned the other rank's value when its own was NaN, so the
// ranks disagreed. Expected bits by hand from the inputs:
//   rank 0: NaN  1    NaN  -1   5    NaN  +0  2
//   rank 1: 1    NaN  NaN  inf  NaN  3    -0  2
//   max:    NaN  NaN  NaN  inf  NaN  NaN  +0  2
//   min:    NaN  NaN  NaN  -1   NaN  NaN  -0  2
//
// RUN: rm -rf %t && split-file %s %t
// RUN: python3 %S/Inputs/npy.py write %t/x.rank0.npy f4 1,8 7fc00000,3f800000,7fc00000,bf800000,40a00000,7fc00000,00000000,40000000
// RUN: python3 %S/Inputs/npy.py write %t/x.rank1.npy f4 1,8 3f800000,7fc00000,7fc00000,7f800000,7fc00000,40400000,80000000,40000000
// RUN: python3 %S/Inputs/npy.py write %t/h.rank0.npy f2 1,8 7e00,3c00,7e00,bc00,4500,7e00,0000,4000
// RUN: python3 %S/Inputs/npy.py write %t/h.rank1.npy f2 1,8 3c00,7e00,7e00,7c00,7e00,4200,8000,4000
//
// RUN: pld-run %t/mesh_max.mlir --ranks 2 --input 'd=%t/x.rank{rank}.npy' --check --output-dir %t/mesh_max
// RUN: python3 %S/Inputs/npy.py show %t/mesh_max/d.rank0.npy | FileCheck %s --check-prefix=MAX32
// RUN: python3 %S/Inputs/npy.py show %t/mesh_max/d.rank1.npy | FileCheck %s --check-prefix=MAX32
// RUN: pld-run %t/two_shot_min.mlir --ranks 2 --input 'd=%t/x.rank{rank}.npy' --check --output-dir %t/two_shot_min
// RUN: python3 %S/Inputs/npy.py show %t/two_shot_min/d.rank0.npy | FileCheck %s --check-prefix=MIN32
// RUN: python3 %S/Inputs/npy.py show %t/two_shot_min/d.rank1.npy | FileCheck %s --check-prefix=MIN32
// RUN: pld-run %t/reduce_max.mlir --ranks 2 --input 'd=%t/x.rank{rank}.npy' --check --output-dir %t/reduce_max
// RUN: python3 %S/Inputs/npy.py show %t/reduce_max/d.rank0.npy | FileCheck %s --check-prefix=MAX32
// RUN: pld-run %t/mesh_max_f16.mlir --ranks 2 --input 'd=%t/h.rank{rank}.npy' --check --output-dir %t/mesh_max_f16
// RUN: python3 %S/Inputs/npy.py show %t/mesh_max_f16/d.rank0.npy | FileCheck %s --check-prefix=MAX16
// RUN: python3 %S/Inputs/npy.py show %t/mesh_max_f16/d.rank1.npy | FileCheck %s --check-prefix=MAX16
// The InCore rail, the same inputs:
// RUN: pld-run %t/incore_max.mlir --ranks 2 --input 'd=%t/x.rank{rank}.npy' --check --output-dir %t/incore_max
// RUN: python3 %S/Inputs/npy.py show %t/incore_max/d.rank1.npy | FileCheck %s --check-prefix=MAX32
//
// MAX32: <f4 (1, 8): 7fc00000 x 3, 7f800000 x 1, 7fc00000 x 2, 00000000 x 1, 40000000 x 1
// MIN32: <f4 (1, 8): 7fc00000 x 3, bf800000 x 1, 7fc00000 x 2, 80000000 x 1, 40000000 x 1
// MAX16: <f2 (1, 8): 7e00 x 3, 7c00 x 1, 7e00 x 2, 0000 x 1, 4000 x 1

//--- mesh_max.mlir
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 32 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "d"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> tensor<1x8xf32, #pld.dist>
  %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"max">} : (tensor<1x8xf32, #pld.dist>) -> tensor<1x8xf32, #pld.dist>
  return
}

//--- two_shot_min.mlir
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 32 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "d"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> tensor<1x8xf32, #pld.dist>
  %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"min">, mode = "two_shot"} : (tensor<1x8xf32, #pld.dist>) -> tensor<1x8xf32, #pld.dist>
  return
}

//--- reduce_max.mlir
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 32 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "d"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> tensor<1x8xf32, #pld.dist>
  %sb = arith.constant 8 : i64
  %sbuf = "pld.tensor_alloc_window_buffer"(%sb) {name = "s"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> tensor<2xi32, #pld.dist>
  %r = "pld.tensor_reduce"(%data, %sig) {op = #pld.reduce_op<"max">, root = 0 : i64} : (tensor<1x8xf32, #pld.dist>, tensor<2xi32, #pld.dist>) -> tensor<1x8xf32, #pld.dist>
  return
}

//--- mesh_max_f16.mlir
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 16 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "d"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> tensor<1x8xf16, #pld.dist>
  %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"max">} : (tensor<1x8xf16, #pld.dist>) -> tensor<1x8xf16, #pld.dist>
  return
}

//--- incore_max.mlir
func.func @k(%d: tensor<1x8xf32, #pld.dist>, %s: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"max">} : (tensor<1x8xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<1x8xf32, #pld.dist>
  return
}
