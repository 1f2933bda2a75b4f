// MLIR's IRDL verifier leaves the op (and an attribute of the wrong kind)
// unnamed; pld names them from the op MLIR's note shows, as MLIR's own op
// errors do ('<op>' op ...).
//
// RUN: not pld-opt %s --split-input-file 2>&1 | FileCheck %s

func.func @arity(%t: tensor<3x4xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // CHECK: irdl-subject.mlir:[[@LINE+1]]:8: error: 'pld.tensor_broadcast' op expects exactly 2 operands, but got 1
  %q = "pld.tensor_broadcast"(%t) {root = 0 : i64} : (tensor<3x4xf32, #pld.dist>) -> tensor<3x4xf32, #pld.dist>
  return
}

// -----

func.func @float_root(%t: tensor<3x4xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // CHECK: irdl-subject.mlir:[[@LINE+1]]:8: error: 'pld.tensor_broadcast' op attribute 'root': expected base attribute 'builtin.integer' but got 'builtin.float'
  %r = "pld.tensor_broadcast"(%t, %s) {root = 1.0e30 : f64} : (tensor<3x4xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<3x4xf32, #pld.dist>
  return
}

// -----

func.func @enum_of_another_kind(%t: tensor<3x4xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // CHECK: irdl-subject.mlir:[[@LINE+1]]:8: error: 'pld.tensor_reduce' op attribute 'op': expected base attribute 'pld.reduce_op' but got 'pld.func_kind'
  %r = "pld.tensor_reduce"(%t, %s) {op = #pld.func_kind<"host">, root = 0 : i64} : (tensor<3x4xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<3x4xf32, #pld.dist>
  return
}
