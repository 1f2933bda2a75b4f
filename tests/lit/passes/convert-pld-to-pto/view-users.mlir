// A pld.tensor_view used by an op that is not pld's has no PTO value to
// give it: an error at that op (the view was erased under it and the
// pass crashed, status 139, or MLIR said "operand is unlinked").
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(pld-to-pto)'

func.func @scale(%t: tensor<1x256xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"aiv">} {
  return
}
func.func @kernel(%data: tensor<4x64xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %row = "pld.tensor_view"(%data) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x64xf32, #pld.dist>) -> tensor<1x256xf32, #pld.dist>
  // expected-error @+1 {{'func.call' op uses the result of a pld.tensor_view, which has no PTO form outside the pld ops of a kernel: pass the parameter itself, or read the view with pld ops}}
  func.call @scale(%row) : (tensor<1x256xf32, #pld.dist>) -> ()
  return
}

// -----

func.func @kernel(%data: tensor<4x64xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %row = "pld.tensor_view"(%data) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x64xf32, #pld.dist>) -> tensor<1x256xf32, #pld.dist>
  // expected-error @+1 {{'tensor.dim' op uses the result of a pld.tensor_view}}
  %n = tensor.dim %row, %c0 : tensor<1x256xf32, #pld.dist>
  return
}
