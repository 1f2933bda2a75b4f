// The contiguity whitelist of spec 13, accepted side: every operand is
// traced to a root (a parameter, tensor.empty) through pass-through steps
// (reshapes, casts, first-dimension slices of static tensors, assembles,
// collective results, calls that return a parameter, loop carries and
// results, scf.if and scf.while results). Each function lowers.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-lower-l2-tensor-collectives)' | FileCheck %s

!in = tensor<4x16xf32>
!out = tensor<4x16xf32, #pld.dist>
!sig = tensor<2x1xi32, #pld.dist>
!sc = tensor<2xi32>
!rc = tensor<2x1xi32, #pld.dist>

func.func @fill(%x: !in) -> !in attributes {pld.kind = #pld.func_kind<"incore">} {
  return %x : !in
}

// CHECK-LABEL: func.func @steps(
// CHECK: call @__builtin_all_to_all_v__fp32(
func.func @steps(%flat: tensor<64xf32>, %big: tensor<8x16xf32>, %out: !out, %sig: !sig, %sc: !sc, %rc: !rc)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  // reshape of a parameter, then a kernel call that returns its argument
  %shape = arith.constant dense<[4, 16]> : tensor<2xi64>
  %r = tensor.reshape %flat(%shape) : (tensor<64xf32>, tensor<2xi64>) -> !in
  %f = func.call @fill(%r) : (!in) -> !in
  // an assemble into it is traced to its destination
  %part = tensor.extract_slice %big[4, 0] [4, 16] [1, 1] : tensor<8x16xf32> to !in
  %a = tensor.insert_slice %part into %f[0, 0] [4, 16] [1, 1] : !in into !in
  %x = "pld.tensor_all_to_all_v"(%a, %out, %sig, %sc, %rc) : (!in, !out, !sig, !sc, !rc) -> !out
  return
}

// A first-dimension slice of a static tensor, and tensor.empty.
// CHECK-LABEL: func.func @slice_and_empty(
// CHECK: call @__builtin_all_to_all_v__fp32(
func.func @slice_and_empty(%big: tensor<8x16xf32>, %out: !out, %sig: !sig, %rc: !rc)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %in = tensor.extract_slice %big[4, 0] [4, 16] [1, 1] : tensor<8x16xf32> to !in
  %sc = tensor.empty() : !sc
  %x = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc) : (!in, !out, !sig, !sc, !rc) -> !out
  return
}

// Loop carries, loop results (also their initial value), scf.if and
// scf.while results, a collective's result.
// CHECK-LABEL: func.func @control_flow(
// CHECK-COUNT-2: call @__builtin_all_to_all_v__fp32(
func.func @control_flow(%in: !in, %other: !in, %out: !out, %sig: !sig, %sc: !sc, %rc: !rc, %flag: i1)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %looped = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %in) -> (!in) {
    %g = func.call @fill(%t) : (!in) -> !in
    scf.yield %g : !in
  }
  %chosen = scf.if %flag -> (!in) {
    scf.yield %looped : !in
  } else {
    scf.yield %other : !in
  }
  %w = scf.while (%v = %chosen) : (!in) -> !in {
    scf.condition(%flag) %v : !in
  } do {
  ^bb0(%v2: !in):
    scf.yield %v2 : !in
  }
  %first = "pld.tensor_all_to_all_v"(%w, %out, %sig, %sc, %rc) : (!in, !out, !sig, !sc, !rc) -> !out
  // the first exchange's result, as the target of the second
  %second = "pld.tensor_all_to_all_v"(%in, %first, %sig, %sc, %rc) : (!in, !out, !sig, !sc, !rc) -> !out
  return
}
