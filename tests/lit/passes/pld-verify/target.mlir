// The module attribute pld.target (docs/dialect.md 2.6): "a2a3" (the
// default) or "a5". A BF16 atomic add exists on a2a3 only (R29);
// pld.tensor_indexed_all_to_all_v on a5 only (C32, in
// tests/lit/passes/pld-lower-l2-tensor-collectives/indexed-invalid.mlir).
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics

module {
  // expected-error@+1 {{pld.target must be "a2a3" or "a5", got "a4"}}
  module attributes {pld.target = "a4"} {
  }
}

// -----

module {
  // expected-error@+1 {{pld.target must be "a2a3" or "a5", got 5 : i64}}
  module attributes {pld.target = 5} {
  }
}

// -----

module attributes {pld.target = "a5"} {
func.func @bf16_add_on_a5(%s: tensor<1x64xbf16, #pld.tile>, %t: tensor<1x64xbf16, #pld.dist>, %p: i32, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{atomic add of bf16 is not supported on pld.target "a5" (only on "a2a3")}}
  "pld.tile_remote_store"(%s, %t, %p, %i, %i) {atomic = #pld.atomic_type<"add">} : (tensor<1x64xbf16, #pld.tile>, tensor<1x64xbf16, #pld.dist>, i32, index, index) -> ()
  return
}
}

// -----

// On a5 the other atomic dtypes stay, and BF16 without accumulation too.
module attributes {pld.target = "a5"} {
func.func @a5_ok(%s: tensor<1x64xf32, #pld.tile>, %t: tensor<1x64xf32, #pld.dist>, %b: tensor<1x64xbf16, #pld.tile>, %u: tensor<1x64xbf16, #pld.dist>, %p: i32, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  "pld.tile_remote_store"(%s, %t, %p, %i, %i) {atomic = #pld.atomic_type<"add">} : (tensor<1x64xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, i32, index, index) -> ()
  "pld.tile_remote_store"(%b, %u, %p, %i, %i) {atomic = #pld.atomic_type<"none">} : (tensor<1x64xbf16, #pld.tile>, tensor<1x64xbf16, #pld.dist>, i32, index, index) -> ()
  return
}
}

// -----

// The default target and an explicit a2a3 accept a BF16 atomic add.
func.func @bf16_add_default(%s: tensor<1x64xbf16, #pld.tile>, %t: tensor<1x64xbf16, #pld.dist>, %p: i32, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  "pld.tile_remote_store"(%s, %t, %p, %i, %i) {atomic = #pld.atomic_type<"add">} : (tensor<1x64xbf16, #pld.tile>, tensor<1x64xbf16, #pld.dist>, i32, index, index) -> ()
  return
}

// -----

module attributes {pld.target = "a2a3"} {
func.func @bf16_add_a2a3(%s: tensor<1x64xbf16, #pld.tile>, %t: tensor<1x64xbf16, #pld.dist>, %p: i32, %i: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  "pld.tile_remote_store"(%s, %t, %p, %i, %i) {atomic = #pld.atomic_type<"add">} : (tensor<1x64xbf16, #pld.tile>, tensor<1x64xbf16, #pld.dist>, i32, index, index) -> ()
  return
}
}
