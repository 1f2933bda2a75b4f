// The pipelines start with pld-verify and lower the functions of the
// outermost module only: pld code in a nested module is refused there (the
// InCore pipeline left its barrier unlowered, with contexts added, exit 0).
// The verifier that runs after parsing accepts it: it is valid IR.
//
// RUN: pld-opt %s -o /dev/null
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-incore-pipeline)' -o /dev/null 2>&1 | FileCheck %s
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-verify)' -o /dev/null 2>&1 | FileCheck %s
// CHECK: nested-module.mlir:[[# @LINE + 3]]:1: error: 'builtin.module' op holds pld code inside another module; pld's passes lower the functions of the outermost module only (its function passes would skip these): move them there

module {
module @inner {
func.func @sync(%sig: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_barrier"(%sig) : (tensor<4x1xi32, #pld.dist>) -> tensor<4x1xi32, #pld.dist>
  return
}
}
}
