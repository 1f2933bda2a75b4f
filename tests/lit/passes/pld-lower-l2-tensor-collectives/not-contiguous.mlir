// The contiguity whitelist of spec 13, rejected side: an operand that may
// come from anything but a root through pass-through steps, or through a
// value with a non-ND layout or padded strides, is an error that names the
// operand and the op that breaks contiguity.
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(pld-lower-l2-tensor-collectives)'

!in = tensor<4x16xf32>
!out = tensor<4x16xf32, #pld.dist>
!sig = tensor<2x1xi32, #pld.dist>
!sc = tensor<2xi32>
!rc = tensor<2x1xi32, #pld.dist>
func.func @transpose(%src: tensor<16x4xf32>, %buf: !in, %out: !out, %sig: !sig, %sc: !sc, %rc: !rc)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %t = linalg.transpose ins(%src : tensor<16x4xf32>) outs(%buf : !in) permutation = [1, 0]
  // expected-error@+1 {{input is not provably contiguous: it may come from 'linalg.transpose' (line 15); the builtin kernel needs dense row-major operands}}
  %x = "pld.tensor_all_to_all_v"(%t, %out, %sig, %sc, %rc) : (!in, !out, !sig, !sc, !rc) -> !out
  return
}

// -----

// A [1, N] slice of a [1, W] tensor narrows the second dimension.
!out = tensor<2x16xf32, #pld.dist>
func.func @inner_slice(%row: tensor<2x32xf32>, %out: !out, %sig: tensor<2x1xi32, #pld.dist>, %sc: tensor<2xi32>, %rc: tensor<2x1xi32, #pld.dist>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %s = tensor.extract_slice %row[0, 8] [2, 16] [1, 1] : tensor<2x32xf32> to tensor<2x16xf32>
  // expected-error@+1 {{input is not provably contiguous: it may come from 'tensor.extract_slice' (line 27) (a slice that narrows a dimension other than the first)}}
  %x = "pld.tensor_all_to_all_v"(%s, %out, %sig, %sc, %rc) : (tensor<2x16xf32>, !out, tensor<2x1xi32, #pld.dist>, tensor<2xi32>, tensor<2x1xi32, #pld.dist>) -> !out
  return
}

// -----

!in = tensor<4x16xf32>
!out = tensor<4x16xf32, #pld.dist>
func.func @dynamic_offset(%big: tensor<8x16xf32>, %at: index, %out: !out, %sig: tensor<2x1xi32, #pld.dist>, %sc: tensor<2xi32>, %rc: tensor<2x1xi32, #pld.dist>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %s = tensor.extract_slice %big[%at, 0] [4, 16] [1, 1] : tensor<8x16xf32> to !in
  // expected-error@+1 {{it may come from 'tensor.extract_slice' (line 39) (a slice with non-literal offsets, sizes or strides)}}
  %x = "pld.tensor_all_to_all_v"(%s, %out, %sig, %sc, %rc) : (!in, !out, tensor<2x1xi32, #pld.dist>, tensor<2xi32>, tensor<2x1xi32, #pld.dist>) -> !out
  return
}

// -----

// A tensor.insert (tensor.write) result, on send_counts.
func.func @written(%in: tensor<4x16xf32>, %out: tensor<4x16xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>, %sc: tensor<2xi32>, %rc: tensor<2x1xi32, #pld.dist>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %c0 = arith.constant 0 : index
  %v = arith.constant 3 : i32
  %w = tensor.insert %v into %sc[%c0] : tensor<2xi32>
  // expected-error@+1 {{send_counts is not provably contiguous: it may come from 'tensor.insert' (line 52)}}
  %x = "pld.tensor_all_to_all_v"(%in, %out, %sig, %w, %rc) : (tensor<4x16xf32>, tensor<4x16xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<2xi32>, tensor<2x1xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
  return
}

// -----

// A callee that returns a fresh tensor, not one of its parameters.
func.func private @make() -> tensor<4x16xf32> attributes {pld.kind = #pld.func_kind<"incore">}
func.func @fresh(%out: tensor<4x16xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>, %sc: tensor<2xi32>, %rc: tensor<2x1xi32, #pld.dist>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %m = func.call @make() : () -> tensor<4x16xf32>
  // expected-error@+1 {{input is not provably contiguous: it may come from 'func.call' (line 64), whose callee does not return one of its parameters there}}
  %x = "pld.tensor_all_to_all_v"(%m, %out, %sig, %sc, %rc) : (tensor<4x16xf32>, tensor<4x16xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<2xi32>, tensor<2x1xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
  return
}

// -----

// A DN-layout value on the chain (an ND view of a DN tensor is a runtime
// transpose).
func.func @dn(%src: tensor<4x16xf32, #pld.view<{layout = "dn"}>>, %out: tensor<4x16xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>, %sc: tensor<2xi32>, %rc: tensor<2x1xi32, #pld.dist>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %nd = tensor.cast %src : tensor<4x16xf32, #pld.view<{layout = "dn"}>> to tensor<4x16xf32>
  // expected-error@+1 {{input is not provably contiguous: it may come from a function parameter, whose layout is "dn" (not ND)}}
  %x = "pld.tensor_all_to_all_v"(%nd, %out, %sig, %sc, %rc) : (tensor<4x16xf32>, tensor<4x16xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<2xi32>, tensor<2x1xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
  return
}

// -----

// Padded strides on the chain.
func.func @padded(%src: tensor<4x16xf32, #pld.view<{strides = array<i64: 32, 1>}>>, %out: tensor<4x16xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>, %sc: tensor<2xi32>, %rc: tensor<2x1xi32, #pld.dist>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %p = tensor.cast %src : tensor<4x16xf32, #pld.view<{strides = array<i64: 32, 1>}>> to tensor<4x16xf32>
  // expected-error@+1 {{input is not provably contiguous: it may come from a function parameter, whose strides [32, 1] are not the packed strides [16, 1]}}
  %x = "pld.tensor_all_to_all_v"(%p, %out, %sig, %sc, %rc) : (tensor<4x16xf32>, tensor<4x16xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<2xi32>, tensor<2x1xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
  return
}

// -----

// A loop whose body yields a good value, but whose initial value is not
// contiguous: a zero-trip loop returns it.
func.func @loop_init(%src: tensor<16x4xf32>, %buf: tensor<4x16xf32>, %good: tensor<4x16xf32>, %out: tensor<4x16xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>, %sc: tensor<2xi32>, %rc: tensor<2x1xi32, #pld.dist>, %n: index)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = linalg.transpose ins(%src : tensor<16x4xf32>) outs(%buf : tensor<4x16xf32>) permutation = [1, 0]
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%v = %t) -> (tensor<4x16xf32>) {
    scf.yield %good : tensor<4x16xf32>
  }
  // expected-error@+1 {{input is not provably contiguous: it may come from 'linalg.transpose' (line 101)}}
  %x = "pld.tensor_all_to_all_v"(%l, %out, %sig, %sc, %rc) : (tensor<4x16xf32>, tensor<4x16xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<2xi32>, tensor<2x1xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
  return
}

// -----

// A loop-carried value rebound in the body to a non-contiguous one.
func.func @loop_carry(%src: tensor<16x4xf32>, %in: tensor<4x16xf32>, %out: tensor<4x16xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>, %sc: tensor<2xi32>, %rc: tensor<2x1xi32, #pld.dist>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %l = scf.for %i = %c0 to %c4 step %c1 iter_args(%v = %in) -> (tensor<4x16xf32>) {
    // expected-error@+1 {{input is not provably contiguous: it may come from 'linalg.transpose' (line 121)}}
    %x = "pld.tensor_all_to_all_v"(%v, %out, %sig, %sc, %rc) : (tensor<4x16xf32>, tensor<4x16xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<2xi32>, tensor<2x1xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
    %t = linalg.transpose ins(%src : tensor<16x4xf32>) outs(%v : tensor<4x16xf32>) permutation = [1, 0]
    scf.yield %t : tensor<4x16xf32>
  }
  return
}

// -----

// One branch of an scf.if breaks contiguity.
func.func @branch(%src: tensor<16x4xf32>, %in: tensor<4x16xf32>, %out: tensor<4x16xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>, %sc: tensor<2xi32>, %rc: tensor<2x1xi32, #pld.dist>, %flag: i1)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %b = scf.if %flag -> (tensor<4x16xf32>) {
    scf.yield %in : tensor<4x16xf32>
  } else {
    %t = linalg.transpose ins(%src : tensor<16x4xf32>) outs(%in : tensor<4x16xf32>) permutation = [1, 0]
    scf.yield %t : tensor<4x16xf32>
  }
  // expected-error@+1 {{input is not provably contiguous: it may come from 'linalg.transpose' (line 135)}}
  %x = "pld.tensor_all_to_all_v"(%b, %out, %sig, %sc, %rc) : (tensor<4x16xf32>, tensor<4x16xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<2xi32>, tensor<2x1xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
  return
}

// -----

// An scf.while whose after-region rebinds the carried value.
func.func @while(%src: tensor<16x4xf32>, %in: tensor<4x16xf32>, %out: tensor<4x16xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>, %sc: tensor<2xi32>, %rc: tensor<2x1xi32, #pld.dist>, %flag: i1)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %w = scf.while (%v = %in) : (tensor<4x16xf32>) -> tensor<4x16xf32> {
    scf.condition(%flag) %v : tensor<4x16xf32>
  } do {
  ^bb0(%v2: tensor<4x16xf32>):
    %t = linalg.transpose ins(%src : tensor<16x4xf32>) outs(%v2 : tensor<4x16xf32>) permutation = [1, 0]
    scf.yield %t : tensor<4x16xf32>
  }
  // expected-error@+1 {{input is not provably contiguous: it may come from 'linalg.transpose' (line 152)}}
  %x = "pld.tensor_all_to_all_v"(%w, %out, %sig, %sc, %rc) : (tensor<4x16xf32>, tensor<4x16xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<2xi32>, tensor<2x1xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
  return
}
