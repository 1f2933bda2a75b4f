// Every diagnostic of pld-lower-l2-tensor-collectives (spec 7.2 and 13), at
// the op it is about.
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(pld-lower-l2-tensor-collectives)'

!in = tensor<4x16xf16>
!out = tensor<4x16xf16, #pld.dist>
func.func @dtype(%in: !in, %out: !out, %sig: tensor<2x1xi32, #pld.dist>, %sc: tensor<2xi32>, %rc: tensor<2x1xi32, #pld.dist>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  // expected-error@+1 {{on the CHIP rail supports only f32 or i8 elements, got f16}}
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc) : (!in, !out, tensor<2x1xi32, #pld.dist>, tensor<2xi32>, tensor<2x1xi32, #pld.dist>) -> !out
  return
}

// -----

!in = tensor<4x16xf32>
!out = tensor<4x16xf32, #pld.dist>
func.func @runtime_core_num(%in: !in, %out: !out, %sig: tensor<2x4xi32, #pld.dist>, %sc: tensor<2xi32>, %rc: tensor<2x1xi32, #pld.dist>, %l: index)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  // expected-error@+1 {{core_num must be a compile-time constant on the CHIP rail (a runtime core_num is supported only on the HOST rail, whose entry runs on the host)}}
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc, %l) : (!in, !out, tensor<2x4xi32, #pld.dist>, tensor<2xi32>, tensor<2x1xi32, #pld.dist>, index) -> !out
  return
}

// -----

!in = tensor<4x16xf32>
!out = tensor<4x16xf32, #pld.dist>
func.func @core_num_too_large(%in: !in, %out: !out, %sig: tensor<2x4xi32, #pld.dist>, %sc: tensor<2xi32>, %rc: tensor<2x1xi32, #pld.dist>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %l = arith.constant 2147483648 : index
  // expected-error@+1 {{core_num must be in [1, 2147483647], got 2147483648}}
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc, %l) : (!in, !out, tensor<2x4xi32, #pld.dist>, tensor<2xi32>, tensor<2x1xi32, #pld.dist>, index) -> !out
  return
}

// -----

// S >= B, with B (not L): P = 8, L = 10 launches B = 8 blocks, more than the
// signal's 4 lanes.
!in = tensor<16x16xf32>
!out = tensor<16x16xf32, #pld.dist>
func.func @stride_below_blocks(%in: !in, %out: !out, %sig: tensor<8x4xi32, #pld.dist>, %sc: tensor<8xi32>, %rc: tensor<8x1xi32, #pld.dist>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %l = arith.constant 10 : index
  // expected-error@+1 {{signal second dimension (S = 4) must be at least the launched block count (B = 8 for P = 8, core_num = 10)}}
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc, %l) : (!in, !out, tensor<8x4xi32, #pld.dist>, tensor<8xi32>, tensor<8x1xi32, #pld.dist>, index) -> !out
  return
}

// -----

// Name collision with a user function.
// expected-error@+1 {{synthesized builtin kernel name '__builtin_all_to_all_v__fp32' collides with an existing function}}
func.func @__builtin_all_to_all_v__fp32() {
  return
}
func.func @collide(%in: tensor<4x16xf32>, %out: tensor<4x16xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>, %sc: tensor<2xi32>, %rc: tensor<2x1xi32, #pld.dist>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc) : (tensor<4x16xf32>, tensor<4x16xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<2xi32>, tensor<2x1xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
  return
}

// -----

// The post-condition names the op and the function, also when nothing was
// rewritten.
func.func @residual(%data: tensor<64xf32, #pld.dist>, %sig: tensor<4x1xi32, #pld.dist>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  // expected-error@+1 {{pld.tensor_allreduce in function 'residual' was not lowered. The managed CHIP/L2 rail supports only pld.tensor_all_to_all_v and pld.tensor_indexed_all_to_all_v; write any other collective in a HOST orchestrator (builtin dispatch rail) or an InCore function (composite rail)}}
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<64xf32, #pld.dist>
  // expected-error@+1 {{pld.tensor_barrier in function 'residual' was not lowered}}
  %b = "pld.tensor_barrier"(%sig) : (tensor<4x1xi32, #pld.dist>) -> tensor<4x1xi32, #pld.dist>
  return
}

// -----

// Next to a rewritten all_to_all_v, a broadcast is still reported.
func.func @residual_after_rewrite(%in: tensor<4x16xf32>, %out: tensor<4x16xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>, %sc: tensor<2xi32>, %rc: tensor<2x1xi32, #pld.dist>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc) : (tensor<4x16xf32>, tensor<4x16xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<2xi32>, tensor<2x1xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
  // expected-error@+1 {{pld.tensor_broadcast in function 'residual_after_rewrite' was not lowered}}
  %b = "pld.tensor_broadcast"(%r, %sig) {root = 0 : i64} : (tensor<4x16xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<4x16xf32, #pld.dist>
  return
}

// -----

// A CommContext holds 64 windows: 65 signal rows (ranks) could never run.
!in = tensor<65x16xf32>
!out = tensor<65x16xf32, #pld.dist>
func.func @ranks_65(%in: !in, %out: !out, %sig: tensor<65x1xi32, #pld.dist>, %sc: tensor<65xi32>, %rc: tensor<65x1xi32, #pld.dist>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  // expected-error@+1 {{'pld.tensor_all_to_all_v' op signal dim 0 (65) is the number of ranks, past the 64 a pld comm domain holds (the CommContext's windows)}}
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc) : (!in, !out, tensor<65x1xi32, #pld.dist>, tensor<65xi32>, tensor<65x1xi32, #pld.dist>) -> !out
  return
}
