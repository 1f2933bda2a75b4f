// L17: a tile lives in the unified buffer of an AIV core, 192 KiB on A2/A3
// and 256 KiB on A5 (pto-interface.md, pitfall 7), so its physical size
// must fit it.
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics

// 192 KiB exactly fits a2a3 (the default target).
func.func @fits() attributes {pld.kind = #pld.func_kind<"incore">} {
  %t = "pld.tile_create"() : () -> tensor<48x1024xf32, #pld.tile>
  return
}

// -----

func.func @too_big() attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'pld.tile_create' op a tile of 200704 bytes does not fit the 192 KiB unified buffer of pld.target "a2a3"}}
  %t = "pld.tile_create"() : () -> tensor<49x1024xf32, #pld.tile>
  return
}

// -----

// A5's buffer is larger.
module attributes {pld.target = "a5"} {
  func.func @a5() attributes {pld.kind = #pld.func_kind<"incore">} {
    %t = "pld.tile_create"() : () -> tensor<49x1024xf32, #pld.tile>
    // expected-error@+1 {{a tile of 266240 bytes does not fit the 256 KiB unified buffer of pld.target "a5"}}
    %u = "pld.tile_create"() : () -> tensor<65x1024xf32, #pld.tile>
    return
  }
}

// -----

// A size that overflows is refused, not wrapped (T16, before the unified
// buffer's own check).
func.func @overflow() attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'pld.tile_create' op result #0: tensor<4294967296x4294967296xf32, #pld.tile> holds more bytes than a 64-bit size counts}}
  %t = "pld.tile_create"() : () -> tensor<4294967296x4294967296xf32, #pld.tile>
  return
}
