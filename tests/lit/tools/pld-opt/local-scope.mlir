// --mlir-print-local-scope, as mlir-opt reads it: an attribute alias is
// written out where it is used (no `#map = ...` line), and the output
// matches mlir-opt's own (it was an unknown option: cli24 L5).
//
// RUN: pld-opt %s --mlir-print-local-scope | FileCheck %s
// RUN: pld-opt %s --mlir-print-local-scope --mlir-print-debuginfo > %t.pld
// RUN: mlir-opt %s --mlir-print-local-scope --mlir-print-debuginfo > %t.mlir-opt
// RUN: diff %t.pld %t.mlir-opt
// RUN: pld-opt %s | FileCheck %s --check-prefix=ALIAS
// CHECK-NOT: #map
// CHECK: affine.apply affine_map<(d0) -> (d0 + 1)>(%arg0)
// ALIAS: #map = affine_map<(d0) -> (d0 + 1)>
// ALIAS: affine.apply #map(%arg0)

#map = affine_map<(d0) -> (d0 + 1)>
func.func @f(%x: index) -> index {
  %y = affine.apply #map(%x)
  return %y : index
}
