// pld-translate refuses, at the op, a converted kernel that breaks what
// PTOAS's verifiers or the pto-isa headers its C++ instantiates require
// (pto-interface.md 1.5); each was printed with exit 0 (pto25 M1, H1).
//
// RUN: not pld-translate --emit=pto --split-input-file %s 2>&1 | FileCheck %s

// A signal of f32, or of a dynamic extent: the comm verifiers take i32
// views of static positive extents.
// CHECK: ptoas-rules.mlir:[[# @LINE + 7]]:3: error: 'pto.comm_tnotify' op signal !pto.partition_tensor_view<1x1xf32> is no i32 view of static positive extents, which PTOAS's comm verifier requires
func.func @f32_signal(%p: !pto.ptr<f32>, %v: i32) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %tv = "pto.make_tensor_view"(%p, %c1, %c4, %c4, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xf32>>
  %pv = "pto.partition_view"(%tv, %c0, %c0, %c1, %c1) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x1xf32>>
  "pto.comm_tnotify"(%pv, %v) {notifyOp = #pto.notify_op<"set">} : (!pto.partition_tensor_view<tensor<1x1xf32>>, i32) -> ()
  return
}

// -----

// CHECK: ptoas-rules.mlir:[[# @LINE + 7]]:3: error: 'pto.comm_twait' op signal !pto.partition_tensor_view<1x?xi32> is no i32 view of static positive extents
func.func @dynamic_signal(%p: !pto.ptr<i32>, %v: i32, %n: index) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %tv = "pto.make_tensor_view"(%p, %c1, %c4, %c4, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<i32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xi32>>
  %pv = "pto.partition_view"(%tv, %c0, %c0, %c1, %n) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xi32>>, index, index, index, index) -> !pto.partition_tensor_view<tensor<1x?xi32>>
  "pto.comm_twait"(%pv, %v) {cmp = #pto.wait_cmp<"ge">} : (!pto.partition_tensor_view<tensor<1x?xi32>>, i32) -> ()
  return
}

// -----

// A tile larger than the target's unified buffer (192 KiB on a2a3).
// CHECK: ptoas-rules.mlir:[[# @LINE + 3]]:8: error: 'pto.alloc_tile' op tile buffer 1x100000xf32 of 400000 bytes does not fit the 192 KiB unified buffer of pld.target "a2a3"
func.func @huge_tile(%n: index) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  %c1 = arith.constant 1 : index
  %t = "pto.alloc_tile"(%c1, %n) {operandSegmentSizes = array<i32: 0, 1, 1>} : (index, index) -> !pto.tile_buf<"vec", tensor<1x100000xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>
  return
}

// -----

// A row of 17 f32 (68 bytes): pto::Tile asserts Cols * sizeof(T) % 32 == 0.
// CHECK: ptoas-rules.mlir:[[# @LINE + 3]]:8: error: 'pto.alloc_tile' op tile buffer 1x17xf32 has a row (its columns) of 68 bytes; pto-isa's Tile needs a multiple of 32: make it 24 with the valid extent 17
func.func @odd_row(%n: index) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  %c1 = arith.constant 1 : index
  %t = "pto.alloc_tile"(%c1, %n) {operandSegmentSizes = array<i32: 0, 1, 1>} : (index, index) -> !pto.tile_buf<"vec", tensor<1x17xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>
  return
}
