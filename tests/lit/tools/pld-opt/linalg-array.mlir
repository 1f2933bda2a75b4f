// MLIR 22's linalg parser dereferences a null attribute when the array of
// linalg.transpose's `permutation` (or linalg.broadcast's and
// linalg.reduce's `dimensions`) is not an array, or is an array of anything
// but plain integers (`[1.0, 0]`, `["x"]`, `array<i64: 1, 0>`); stock
// mlir-opt segfaults. pld's tools refuse it first, at the value.
//
// RUN: not pld-opt %s 2>&1 | FileCheck %s
// RUN: not pld-translate --emit=pto %s 2>&1 | FileCheck %s
// RUN: sed 's/= arith.constant 0]/= [1.0, 0]/' %s > %t.float.mlir
// RUN: not pld-opt %t.float.mlir 2>&1 | FileCheck %s --check-prefix=FLOAT
// RUN: not pld-run %t.float.mlir 2>&1 | FileCheck %s --check-prefix=FLOAT
// FLOAT: float.mlir:18:92: error: expected an array of integers, `[..]`
//
// CHECK: linalg-array.mlir:18:92: error: expected an array of integers, `[..]`

func.func @f(%a: tensor<2x4xf32>, %b: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %c0 = arith.constant 0 : index
  %t = linalg.transpose ins(%a : tensor<2x4xf32>) outs(%b : tensor<4x2xf32>) permutation = arith.constant 0]
  return %t : tensor<4x2xf32>
}
