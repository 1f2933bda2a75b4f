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

// -----

// A tensor parameter used directly by an op that is not pld's: the
// parameter becomes a pointer, and MLIR's verifier refused the op on a
// !pto.ptr<f32> the user never wrote.
func.func @raw(%x: tensor<4x64xf32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tensor.dim' op uses the tensor parameter #0 (tensor<4x64xf32>) directly, which convert-pld-to-pto turns into a pointer (!pto.ptr): read it with pld ops (pld.tensor_read, pld.tile_load) instead}}
  %d = tensor.dim %x, %c0 : tensor<4x64xf32>
  return
}

// -----

func.func @cast(%x: tensor<4x64xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error @+1 {{'tensor.cast' op uses the tensor parameter #0 (tensor<4x64xf32, #pld.dist>) directly}}
  %c = tensor.cast %x : tensor<4x64xf32, #pld.dist> to tensor<?x64xf32, #pld.dist>
  return
}
