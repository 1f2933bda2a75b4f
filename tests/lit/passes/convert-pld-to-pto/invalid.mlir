// Diagnostics of convert-pld-to-pto.
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(convert-pld-to-pto)'

!bits = tensor<1x64xi4, #pld.dist>
// expected-error@+1 {{parameter #0 has element type i4; PTO tensors need byte-sized elements}}
func.func @sub_byte(%d: !bits, %ctx: !pld.ctx) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}

// -----

// Whole bytes, but not a scalar (it said "need byte-sized elements"):
// expected-error@+1 {{parameter #0 has element type complex<f32>; PTO tensors need integer or floating-point elements}}
func.func @complex(%d: tensor<1x64xcomplex<f32>, #pld.dist>, %ctx: !pld.ctx) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}

// -----

// expected-error@+1 {{parameter #0 has element type vector<4xf32>; PTO tensors need integer or floating-point elements}}
func.func @vector(%d: tensor<1x64xvector<4xf32>>, %ctx: !pld.ctx) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}

// -----

// index elements have no PTO element type (they became !pto.ptr<index>):
// expected-error@+1 {{parameter #0 has element type index; PTO tensors need integer or floating-point elements}}
func.func @index(%d: tensor<8xindex>) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}

// -----

// An unranked parameter was left as it was (pld-translate failed later):
// expected-error@+1 {{PTO conversion needs static tensor shapes at kernel boundaries: parameter #0 is tensor<*xf32>, of no rank}}
func.func @unranked(%d: tensor<*xf32>) attributes {pld.kind = #pld.func_kind<"incore">} {
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
  // expected-error@+1 {{'pld.tensor_allreduce' op has no PTO form; lower it first (pld-lower-composite-ops expands InCore collectives into tile ops)}}
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
// expected-error@+1 {{PTO conversion needs static tensor shapes at kernel boundaries: parameter #0 is tensor<?xf32, #pld.dist>}}
func.func @dynamic(%d: !data, %ctx: !pld.ctx) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}

// -----

// A dynamic shape is said as such, also where pld-lower-composite-ops read
// it with a tensor.dim (it said the tensor.dim used the parameter
// directly, an op the user never wrote):
!rows = tensor<?x64xf32, #pld.dist>
// expected-error@+1 {{PTO conversion needs static tensor shapes at kernel boundaries: parameter #0 is tensor<?x64xf32, #pld.dist>}}
func.func @dim(%d: !rows, %ctx: !pld.ctx) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %d, %c0 : !rows
  return
}

// -----

// expected-error@+1 {{a PTO kernel returns nothing}}
func.func @returns() -> i32 attributes {pld.kind = #pld.func_kind<"aiv">} {
  %c = arith.constant 0 : i32
  return %c : i32
}

// -----

// The tensor forms of the remote ops have no PTO sequence (spec 9.3 has the
// tile forms).
!data = tensor<1x64xf32, #pld.dist>
func.func @tensor_put(%d: !data, %local: tensor<1x64xf32>, %peer: index, %ctx: !pld.ctx) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'pld.tensor_put' op has no PTO lowering yet (only the tile forms are converted); write it as 'pld.tile_put' with an explicit staging tile}}
  "pld.tensor_put"(%d, %peer, %local) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (!data, index, tensor<1x64xf32>) -> ()
  return
}

// -----

// A branch result that is one parameter or another has no one pointer
// (a loop carry is the parameter it starts as: loop-carried.mlir).
!data = tensor<1x64xf32, #pld.dist>
func.func @either(%a: !data, %b: !data, %flag: i1, %ca: !pld.ctx, %cb: !pld.ctx) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %x = scf.if %flag -> (!data) {
    scf.yield %a : !data
  } else {
    scf.yield %b : !data
  }
  // expected-error@+1 {{this tensor comes from an scf.if whose branches yield different tensors (parameters #0 and #1); PTO conversion needs one tensor per result}}
  %t = "pld.tile_load"(%x, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!data, index, index) -> tensor<1x64xf32, #pld.tile>
  return
}
