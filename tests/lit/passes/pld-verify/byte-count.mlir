// T16: a pld tensor whose static extents times its element size overflow a
// signed 64-bit byte count is refused where it is written (it used to reach
// the PTO conversion, which called it dynamically shaped: "needs static
// tensor shapes").
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics
// RUN: not pld-run %s 2>&1 | FileCheck %s
//
// CHECK: byte-count.mlir:[[@LINE+3]]:1: error: function @k: argument #0: tensor<4294967296x4294967296xf32, #pld.dist> holds more bytes than a 64-bit size counts (4294967296 x 4294967296 x 4 bytes)

// expected-error@+1 {{function @k: argument #0: tensor<4294967296x4294967296xf32, #pld.dist> holds more bytes than a 64-bit size counts (4294967296 x 4294967296 x 4 bytes)}}
func.func @k(%data: tensor<4294967296x4294967296xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}

// -----

// 2^60 f32 elements (2^62 bytes) fit.
func.func @fits(%data: tensor<1073741824x1073741824xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}

// -----

func.func @tile() attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'pld.tile_create' op result #0: tensor<4611686018427387904x2xf16, #pld.tile> holds more bytes than a 64-bit size counts (4611686018427387904 x 2 x 2 bytes)}}
  %t = "pld.tile_create"() : () -> tensor<4611686018427387904x2xf16, #pld.tile>
  return
}
