// MLIR 22's linalg parser dereferences a null attribute when the array of
// linalg.transpose's `permutation` (or linalg.broadcast's and
// linalg.reduce's `dimensions`) is not an array; stock mlir-opt segfaults.
// pld's tools refuse it first, at the value.
//
// RUN: not pld-opt %s 2>&1 | FileCheck %s
// RUN: not pld-translate --emit=pto %s 2>&1 | FileCheck %s
//
// CHECK: linalg-array.mlir:13:92: error: expected an array of integers, `[..]`

func.func @f(%a: tensor<2x4xf32>, %b: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %c0 = arith.constant 0 : index
  %t = linalg.transpose ins(%a : tensor<2x4xf32>) outs(%b : tensor<4x2xf32>) permutation = arith.constant 0]
  return %t : tensor<4x2xf32>
}
