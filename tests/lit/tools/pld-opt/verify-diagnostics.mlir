// --verify-diagnostics fails (exit 1) when an expected diagnostic is missing
// or an unexpected one appears, naming both.
//
// RUN: not pld-opt --verify-diagnostics --split-input-file %s 2>&1 | FileCheck %s

func.func @k(%t: tensor<4x1xi32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // CHECK: verify-diagnostics.mlir:[[@LINE+1]]:8: error: unexpected error: 'pld.tensor_barrier' op signal must be a distributed tensor (#pld.dist
  %r = "pld.tensor_barrier"(%t) : (tensor<4x1xi32>) -> tensor<4x1xi32>
  return
}

// -----

func.func @fine() {
  // CHECK: verify-diagnostics.mlir:[[@LINE+1]]: error: expected error "never produced" at line [[@LINE+2]] was not produced
  // expected-error@+1 {{never produced}}
  return
}

// -----

// CHECK: verify-diagnostics.mlir:[[@LINE+1]]: error: bad location designator '@+x'
// expected-error@+x {{bad}}
