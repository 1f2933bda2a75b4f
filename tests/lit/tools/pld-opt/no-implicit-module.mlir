// --no-implicit-module: the input must be a single top-level op, which is
// printed as it is (no module around a lone func.func); several top-level
// ops are an error, and a pipeline anchored on builtin.module cannot run on
// another op.
//
// RUN: pld-opt %s --split-input-file --no-implicit-module 2>&1 | FileCheck %s
// CHECK-NOT: module
// CHECK: func.func @alone() {
// CHECK-NEXT:   return
// CHECK-NEXT: }
// CHECK: // -----
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @inside
//
// RUN: pld-opt %s --split-input-file | FileCheck %s --check-prefix=IMPLICIT
// IMPLICIT: module {
// IMPLICIT-NEXT: func.func @alone
//
// RUN: not pld-opt %s --split-input-file --no-implicit-module --pass-pipeline='builtin.module(cse)' 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: no-implicit-module.mlir:[[@LINE+10]]:1: error: can't run 'builtin.module' pass manager on 'func.func' op
//
// A pipeline anchored on the lone function itself (mlir-opt runs it; pld-opt
// does not, and says how to get it run):
// RUN: not pld-opt %s --split-input-file --no-implicit-module --pass-pipeline='func.func(cse)' 2>&1 | FileCheck %s --check-prefix=FUNC
// FUNC: pld-opt: error: invalid pass pipeline: the pipeline must be anchored on builtin.module (or any), as in 'builtin.module(func.func(...))' (also under --no-implicit-module: pld-opt runs pipelines on a module only; put the function in a `module { ... }`)
// RUN: printf 'func.func private @a()\nfunc.func private @b()\n' > %t.two.mlir
// RUN: not pld-opt %t.two.mlir --no-implicit-module 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: error: source must contain a single top-level operation, found: 2

func.func @alone() {
  return
}

// -----

module {
  func.func @inside() {
    return
  }
}
