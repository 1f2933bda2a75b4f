// pld-translate verifies before it prints: a pto.alloc_tile whose valid_row
// operand PTOAS would refuse (the type's valid row is 1, not ?) is an error
// with its location, and nothing is written.
//
// RUN: not pld-translate --emit=pto %s -o %t.pto 2>&1 | FileCheck %s
// RUN: not test -s %t.pto
// CHECK: alloc-tile-refused.mlir:[[@LINE+5]]:8: error: 'pto.alloc_tile' op valid_row operand must be absent: the result type's valid row is 1, not ?

!tile = !pto.tile_buf<"vec", tensor<1x256xf32>, {valid = array<i64: 1, -1>}>
func.func @k(%n: index) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  %c1 = arith.constant 1 : index
  %t = "pto.alloc_tile"(%c1, %n) {operandSegmentSizes = array<i32: 0, 1, 1>} : (index, index) -> !tile
  return
}
