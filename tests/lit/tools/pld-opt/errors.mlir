// Diagnostics are printed as file:line:col: error: message, the exit status
// is 1, and no IR is printed. Standard input is named <stdin>.
//
// RUN: not pld-opt %s 2>&1 | FileCheck %s
// RUN: not pld-opt - < %s 2>&1 | FileCheck %s --check-prefix=STDIN
// RUN: not pld-opt %s 2>/dev/null | count 0

func.func @k(%t: tensor<4x1xi32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // CHECK: errors.mlir:[[@LINE+2]]:8: error: 'pld.tensor_barrier' op signal must be a distributed tensor (#pld.dist, bound to a window), got a plain tensor
  // STDIN: <stdin>:[[@LINE+1]]:8: error: 'pld.tensor_barrier' op signal
  %r = "pld.tensor_barrier"(%t) : (tensor<4x1xi32>) -> tensor<4x1xi32>
  return
}
