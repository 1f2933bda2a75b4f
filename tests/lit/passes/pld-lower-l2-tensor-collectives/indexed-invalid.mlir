// pld.tensor_indexed_all_to_all_v: A5 only, CHIP only, exact launch count.
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(pld-lower-l2-tensor-collectives)'

// The default target (a2a3) has no URMA transport.
func.func @a2a3(%in: tensor<16x16xf32>, %out: tensor<16x16xf32, #pld.dist>, %sig: tensor<8x1xi32, #pld.dist>,
                %sc: tensor<8xi32, #pld.dist>, %rc: tensor<8x1xi32>, %index: tensor<16xi32>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  // expected-error@+1 {{'pld.tensor_indexed_all_to_all_v' op requires pld.target = "a5" (its URMA transport exists only on A5), but the module targets "a2a3"}}
  %r = "pld.tensor_indexed_all_to_all_v"(%in, %out, %sig, %sc, %rc, %index) : (tensor<16x16xf32>, tensor<16x16xf32, #pld.dist>, tensor<8x1xi32, #pld.dist>, tensor<8xi32, #pld.dist>, tensor<8x1xi32>, tensor<16xi32>) -> tensor<16x16xf32, #pld.dist>
  return
}

// -----

module attributes {pld.target = "a2a3"} {
func.func @explicit_a2a3(%in: tensor<16x16xf32>, %out: tensor<16x16xf32, #pld.dist>, %sig: tensor<8x1xi32, #pld.dist>,
                %sc: tensor<8xi32, #pld.dist>, %rc: tensor<8x1xi32>, %index: tensor<16xi32>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  // expected-error@+1 {{requires pld.target = "a5"}}
  %r = "pld.tensor_indexed_all_to_all_v"(%in, %out, %sig, %sc, %rc, %index) : (tensor<16x16xf32>, tensor<16x16xf32, #pld.dist>, tensor<8x1xi32, #pld.dist>, tensor<8xi32, #pld.dist>, tensor<8x1xi32>, tensor<16xi32>) -> tensor<16x16xf32, #pld.dist>
  return
}
}

// -----

// HOST and InCore uses are rejected.
module attributes {pld.target = "a5"} {
func.func @host(%in: tensor<16x16xf32>, %out: tensor<16x16xf32, #pld.dist>, %sig: tensor<8x1xi32, #pld.dist>,
                %sc: tensor<8xi32, #pld.dist>, %rc: tensor<8x1xi32>, %index: tensor<16xi32>)
    attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-error@+1 {{'pld.tensor_indexed_all_to_all_v' op is only allowed in a CHIP orchestrator (pld.kind "chip"), not in a HOST orchestrator @host}}
  %r = "pld.tensor_indexed_all_to_all_v"(%in, %out, %sig, %sc, %rc, %index) : (tensor<16x16xf32>, tensor<16x16xf32, #pld.dist>, tensor<8x1xi32, #pld.dist>, tensor<8xi32, #pld.dist>, tensor<8x1xi32>, tensor<16xi32>) -> tensor<16x16xf32, #pld.dist>
  return
}
func.func @kernel(%in: tensor<16x16xf32>, %out: tensor<16x16xf32, #pld.dist>, %sig: tensor<8x1xi32, #pld.dist>,
                %sc: tensor<8xi32, #pld.dist>, %rc: tensor<8x1xi32>, %index: tensor<16xi32>)
    attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'pld.tensor_indexed_all_to_all_v' op is only allowed in a CHIP orchestrator (pld.kind "chip"), not in an InCore kernel @kernel}}
  %r = "pld.tensor_indexed_all_to_all_v"(%in, %out, %sig, %sc, %rc, %index) : (tensor<16x16xf32>, tensor<16x16xf32, #pld.dist>, tensor<8x1xi32, #pld.dist>, tensor<8xi32, #pld.dist>, tensor<8x1xi32>, tensor<16xi32>) -> tensor<16x16xf32, #pld.dist>
  return
}
}

// -----

// core_num is the exact launch count, so the signal needs L lanes: P = 8,
// L = 10 needs S >= 10 (all_to_all_v would accept S = 8).
module attributes {pld.target = "a5"} {
func.func @lanes(%in: tensor<16x16xf32>, %out: tensor<16x16xf32, #pld.dist>, %sig: tensor<8x8xi32, #pld.dist>,
                %sc: tensor<8xi32, #pld.dist>, %rc: tensor<8x1xi32>, %index: tensor<16xi32>)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %l = arith.constant 10 : index
  // expected-error@+1 {{signal second dimension (S = 8) must be at least the launched block count (B = 10 for P = 8, core_num = 10)}}
  %r = "pld.tensor_indexed_all_to_all_v"(%in, %out, %sig, %sc, %rc, %index, %l) : (tensor<16x16xf32>, tensor<16x16xf32, #pld.dist>, tensor<8x8xi32, #pld.dist>, tensor<8xi32, #pld.dist>, tensor<8x1xi32>, tensor<16xi32>, index) -> tensor<16x16xf32, #pld.dist>
  return
}
}

// -----

// Contiguity applies to all six operands, index included.
module attributes {pld.target = "a5"} {
func.func @index_slice(%in: tensor<16x16xf32>, %out: tensor<16x16xf32, #pld.dist>, %sig: tensor<8x1xi32, #pld.dist>,
                %sc: tensor<8xi32, #pld.dist>, %rc: tensor<8x1xi32>, %all: tensor<32xi32>, %at: index)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %index = tensor.extract_slice %all[%at] [16] [1] : tensor<32xi32> to tensor<16xi32>
  // expected-error@+1 {{index is not provably contiguous: it may come from 'tensor.extract_slice' (line 68) (a slice with non-literal offsets, sizes or strides)}}
  %r = "pld.tensor_indexed_all_to_all_v"(%in, %out, %sig, %sc, %rc, %index) : (tensor<16x16xf32>, tensor<16x16xf32, #pld.dist>, tensor<8x1xi32, #pld.dist>, tensor<8xi32, #pld.dist>, tensor<8x1xi32>, tensor<16xi32>) -> tensor<16x16xf32, #pld.dist>
  return
}
}
