// pld-verify as a pass in a pipeline: valid IR goes through unchanged; the
// pass runs on the module (its rules cross functions), so it cannot be
// nested under func.func. Its rules are tested case by case in invalid.mlir.
//
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-verify)' | FileCheck %s
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-verify, pld-verify)' | FileCheck %s
// RUN: not pld-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(pld-verify))' 2>&1 | FileCheck %s --check-prefix=NESTED
// NESTED: pass 'pld-verify' runs on builtin.module and cannot be nested under 'func.func'
// Under a nested builtin.module too, said without contradiction (it said
// "runs on builtin.module and cannot be nested under 'builtin.module'"):
// RUN: not pld-opt %s --split-input-file --pass-pipeline='builtin.module(builtin.module(pld-verify))' 2>&1 | FileCheck %s --check-prefix=INNER
// INNER: pass 'pld-verify' runs on the outermost builtin.module only and cannot be nested under another 'builtin.module' (write it outside the inner builtin.module(...))

// CHECK-LABEL: func.func @barrier_kernel
// CHECK: "pld.tensor_barrier"(%arg0)
func.func @barrier_kernel(%s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_barrier"(%s) : (tensor<4x1xi32, #pld.dist>) -> tensor<4x1xi32, #pld.dist>
  return
}
