// A syntax error is reported at its position with exit status 1.
//
// RUN: not pld-opt %s 2>&1 | FileCheck %s

func.func @f() {
  // CHECK: parse-error.mlir:[[@LINE+1]]:32: error: expected ')' to end operand list
  %x = "pld.system_world_size"( : () -> i64
  return
}
