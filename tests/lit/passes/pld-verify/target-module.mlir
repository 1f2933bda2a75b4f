// A malformed pld.target on the top-level module is reported at the module.
//
// RUN: not pld-opt %s 2>&1 | FileCheck %s
// CHECK: target-module.mlir:[[@LINE+1]]:1: error: pld.target must be "a2a3" or "a5", got "ascend"
module attributes {pld.target = "ascend"} {
}
