// --verify-diagnostics fails (exit 1) when an expected diagnostic is missing
// or an unexpected one appears, naming both with the line and a caret, as
// mlir-opt does (verify-diagnostics-re.mlir compares the two tools).
//
// RUN: not pld-opt --verify-diagnostics --split-input-file %s 2>&1 | FileCheck %s

func.func @k(%t: tensor<4x1xi32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // CHECK: verify-diagnostics.mlir:[[@LINE+3]]:8: error: unexpected error: 'pld.tensor_barrier' op signal must be a distributed tensor (#pld.dist
  // CHECK-NEXT: {{^}}  %r = "pld.tensor_barrier"(%t)
  // CHECK-NEXT: {{^}}       ^{{$}}
  %r = "pld.tensor_barrier"(%t) : (tensor<4x1xi32>) -> tensor<4x1xi32>
  return
}

// -----

func.func @fine() {
  // CHECK: verify-diagnostics.mlir:[[@LINE+3]]:6: error: expected error "never produced" was not produced
  // CHECK-NEXT: {{^}}  // expected-{{error}}@+1
  // CHECK-NEXT: {{^}}     ^~~~~~~~~~~~~~{{$}}
  // expected-error@+1 {{never produced}}
  return
}

// -----

// CHECK: verify-diagnostics.mlir:[[@LINE+1]]:4: error: bad location designator '@+x': use @+N, @-N, @above, @below or @unknown
// expected-error@+x {{bad}}
