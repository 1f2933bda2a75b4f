// A kernel's call of a function without pld.kind: this pass converts the
// signatures of kernels only, so the helper must take and return scalars.
// A tensor passed to one became a !pto.ptr while the helper kept its tensor
// parameter, and MLIR's verifier reported an "operand type mismatch" that
// named neither cause nor fix.
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(pld-to-pto)'
// RUN: not pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-to-pto)' 2>/dev/null | FileCheck %s

func.func @look(%d: tensor<1x64xf32, #pld.dist>) -> index {
  %c = arith.constant 3 : index
  return %c : index
}
func.func @kernel(%d: tensor<1x64xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error @+1 {{'func.call' op calls @look, a function without pld.kind, whose signature has tensor<1x64xf32, #pld.dist>: convert-pld-to-pto converts the signatures of kernels only, so a kernel's helper takes and returns scalars (index, integers, floats); give @look pld.kind = #pld.func_kind<"incore"> to have it converted as a kernel (a kernel returns nothing: give its results back through a tensor parameter)}}
  %z = func.call @look(%d) : (tensor<1x64xf32, #pld.dist>) -> index
  return
}

// -----

// A result counts too.
func.func @make(%n: index) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  return %e : tensor<4xf32>
}
func.func @kernel(%d: tensor<1x64xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c = arith.constant 3 : index
  // expected-error @+1 {{'func.call' op calls @make, a function without pld.kind, whose signature has tensor<4xf32>}}
  %e = func.call @make(%c) : (index) -> tensor<4xf32>
  return
}

// -----

// Scalars pass: the kernel is converted and the helper is left as written.
// CHECK-LABEL: func.func @scale
// CHECK-SAME: (%{{.*}}: i32, %{{.*}}: f32) -> f32
func.func @scale(%n: i32, %x: f32) -> f32 {
  %f = arith.sitofp %n : i32 to f32
  %y = arith.mulf %f, %x : f32
  return %y : f32
}
// CHECK-LABEL: func.func @kernel
// CHECK-SAME: !pto.ptr<f32>
// CHECK: call @scale(%{{.*}}, %{{.*}}) : (i32, f32) -> f32
func.func @kernel(%d: tensor<1x64xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c = arith.constant 3 : i32
  %x = arith.constant 2.0 : f32
  %y = func.call @scale(%c, %x) : (i32, f32) -> f32
  return
}
