// --mlir-elide-elementsattrs-if-larger=N: an elements attribute with more
// than N elements prints as `dense_resource<__elided__>`, in the output and
// in IR dumps.
//
// RUN: pld-opt %s --mlir-elide-elementsattrs-if-larger=2 | FileCheck %s
// CHECK: %cst = arith.constant dense_resource<__elided__> : tensor<4xi32>
// CHECK: %cst_0 = arith.constant dense<[5, 6]> : tensor<2xi32>
//
// RUN: pld-opt %s --mlir-elide-elementsattrs-if-larger=4 | FileCheck %s --check-prefix=KEPT
// KEPT: dense<[1, 2, 3, 4]> : tensor<4xi32>
//
// RUN: pld-opt %s --mlir-elide-elementsattrs-if-larger=2 --pass-pipeline='builtin.module(cse)' --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=DUMP
// DUMP: IR Dump After CSE (cse)
// DUMP: dense_resource<__elided__> : tensor<4xi32>

func.func @c() -> (tensor<4xi32>, tensor<2xi32>) {
  %0 = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %1 = arith.constant dense<[5, 6]> : tensor<2xi32>
  return %0, %1 : tensor<4xi32>, tensor<2xi32>
}
