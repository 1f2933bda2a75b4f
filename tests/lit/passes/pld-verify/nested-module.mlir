// The pipelines start with pld-verify and lower the functions of the
// outermost module only: pld code in a nested module is refused there (the
// InCore pipeline left its barrier unlowered, with contexts added, exit 0).
// The verifier that runs after parsing accepts it: it is valid IR.
//
// RUN: pld-opt %s -o /dev/null
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-incore-pipeline)' -o /dev/null 2>&1 | FileCheck %s
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-verify)' -o /dev/null 2>&1 | FileCheck %s
// CHECK: nested-module.mlir:[[# @LINE + 10]]:1: error: 'builtin.module' op holds pld code (pld ops, functions with a pld.kind, or a shard program converted to them) inside another module; pld's passes lower the functions of the outermost module only (its function passes would skip these): move them there
// CHECK-NOT: error
// Only the outermost such module is named (each module around the code
// was named, one error each: 499 for 500 levels):
// RUN: sed -e 's/^module @inner {$/module @inner { module @deeper { module @deepest {/' -e '$ s/^}$/} } }/' %s > %t.mlir
// RUN: not pld-opt %t.mlir --pass-pipeline='builtin.module(pld-verify)' -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP-COUNT-1: error: 'builtin.module' op holds pld code
// DEEP-NOT: error

module {
module @inner {
func.func @sync(%sig: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_barrier"(%sig) : (tensor<4x1xi32, #pld.dist>) -> tensor<4x1xi32, #pld.dist>
  return
}
}
}
