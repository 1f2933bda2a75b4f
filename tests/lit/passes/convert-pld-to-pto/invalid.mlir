// Diagnostics of convert-pld-to-pto.
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(convert-pld-to-pto)'

!bits = tensor<1x64xi4, #pld.dist>
// expected-error@+1 {{Distributed remote ops only support byte-sized element types}}
func.func @sub_byte(%d: !bits, %ctx: !pld.ctx) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}

// -----

!data = tensor<1x64xf32, #pld.dist>
// expected-error@+1 {{1 distributed parameters but 0 CommContext parameters: run pld-materialize-dist-tensor-ctx before PTO codegen}}
func.func @no_ctx(%d: !data) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}

// -----

!data = tensor<1x64xf32, #pld.dist>
!sig = tensor<2x1xi32, #pld.dist>
func.func @collective(%d: !data, %s: !sig, %c1: !pld.ctx, %c2: !pld.ctx) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'pld.tensor_allreduce' has no PTO form; lower it first (pld-lower-composite-ops turns collectives into tile ops)}}
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">} : (!data, !sig) -> !data
  return
}

// -----

!data = tensor<1x64xf32>
func.func @local_only(%d: !data, %peer: i32) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %t = "pld.tile_create"() : () -> tensor<1x64xf32, #pld.tile>
  // expected-error@+1 {{src must be a tile, got a plain tensor}}
  "pld.tile_remote_store"(%d, %d, %peer, %c0, %c0) : (!data, !data, i32, index, index) -> ()
  return
}

// -----

!data = tensor<?xf32, #pld.dist>
// expected-error@+1 {{PTO conversion needs static tensor shapes at kernel boundaries}}
func.func @dynamic(%d: !data, %ctx: !pld.ctx) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}

// -----

// expected-error@+1 {{a PTO kernel returns nothing}}
func.func @returns() -> i32 attributes {pld.kind = #pld.func_kind<"aiv">} {
  %c = arith.constant 0 : i32
  return %c : i32
}
