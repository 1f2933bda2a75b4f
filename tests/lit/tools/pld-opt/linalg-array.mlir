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
// FLOAT: float.mlir:26:92: error: expected an array of integers, `[..]`
// A list cut short (found by mutation testing: a segfault, status 139), and
// one that spans lines with a comment, which MLIR reads:
// RUN: sed 's/= arith.constant 0]/= [1, /' %s > %t.cut.mlir
// RUN: not pld-opt %t.cut.mlir 2>&1 | FileCheck %s --check-prefix=CUT
// CUT: cut.mlir:26:92: error: expected an array of integers, `[..]`
// RUN: sed '/^  %%t/ s|= arith.constant 0]|= [1, // the rows\n 0]|' %s > %t.span.mlir
// RUN: pld-opt %t.span.mlir | FileCheck %s --check-prefix=SPAN
// SPAN: permutation = [1, 0]
//
// CHECK: linalg-array.mlir:26:92: error: expected an array of integers, `[..]`

func.func @f(%a: tensor<2x4xf32>, %b: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %c0 = arith.constant 0 : index
  %t = linalg.transpose ins(%a : tensor<2x4xf32>) outs(%b : tensor<4x2xf32>) permutation = arith.constant 0]
  return %t : tensor<4x2xf32>
}
