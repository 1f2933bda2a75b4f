// pto.alloc_tile as PTOAS verifies it: the valid_row / valid_col operand is
// present exactly when the result type's valid extent in that dimension is
// `?` (a tile without a `valid` property is valid in full). The rule is
// PTOAS's ("valid_row operand must be absent because result type v_row is
// 1"); the cases below are written from it.
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics

!row_dyn = !pto.tile_buf<"vec", tensor<1x256xf32>, {valid = array<i64: 1, -1>}>
!both_dyn = !pto.tile_buf<"vec", tensor<16x64xf32>, {valid = array<i64: -1, -1>}>
!full = !pto.tile_buf<"vec", tensor<16x64xf16>, {valid = array<i64: 16, 64>}>
!bare = !pto.tile_buf<"vec", tensor<16x64xf16>, {}>
func.func @fine(%n: index) {
  %a = "pto.alloc_tile"(%n) {operandSegmentSizes = array<i32: 0, 0, 1>} : (index) -> !row_dyn
  %b = "pto.alloc_tile"(%n, %n) {operandSegmentSizes = array<i32: 0, 1, 1>} : (index, index) -> !both_dyn
  %c = "pto.alloc_tile"() {operandSegmentSizes = array<i32: 0, 0, 0>} : () -> !full
  %d = "pto.alloc_tile"() {operandSegmentSizes = array<i32: 0, 0, 0>} : () -> !bare
  return
}

// -----

!row_dyn = !pto.tile_buf<"vec", tensor<1x256xf32>, {valid = array<i64: 1, -1>}>
func.func @static_row_with_operand(%n: index) {
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'pto.alloc_tile' op valid_row operand must be absent: the result type's valid row is 1, not ?}}
  %t = "pto.alloc_tile"(%c1, %n) {operandSegmentSizes = array<i32: 0, 1, 1>} : (index, index) -> !row_dyn
  return
}

// -----

!row_dyn = !pto.tile_buf<"vec", tensor<1x256xf32>, {valid = array<i64: 1, -1>}>
func.func @dynamic_col_without_operand() {
  // expected-error@+1 {{'pto.alloc_tile' op needs a valid_col operand: the result type's valid column is ?}}
  %t = "pto.alloc_tile"() {operandSegmentSizes = array<i32: 0, 0, 0>} : () -> !row_dyn
  return
}

// -----

!bare = !pto.tile_buf<"vec", tensor<16x64xf16>, {}>
func.func @full_tile_with_operands(%n: index) {
  // expected-error@+2 {{valid_row operand must be absent: the result type's valid row is 16, not ?}}
  // expected-error@+1 {{valid_col operand must be absent: the result type's valid column is 64, not ?}}
  %t = "pto.alloc_tile"(%n, %n) {operandSegmentSizes = array<i32: 0, 1, 1>} : (index, index) -> !bare
  return
}
