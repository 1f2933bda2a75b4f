// --dump-pass-pipeline: the pipeline that will run, as mlir-opt prints it
// (to standard error): the number of top-level passes, one pass a line,
// named pld pipelines expanded into their passes, upstream passes with all
// their options, adjacent passes on the same anchor in one nested pipeline.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-verify,func.func(cse,canonicalize{max-iterations=3}),symbol-dce)' --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s
// CHECK: Pass Manager with 3 passes:
// CHECK-NEXT: builtin.module(
// CHECK-NEXT:   pld-verify,
// CHECK-NEXT:   func.func(
// CHECK-NEXT:     cse,
// CHECK-NEXT:     canonicalize{{{.*}}max-iterations=3{{.*}}}
// CHECK-NEXT:   ),
// CHECK-NEXT:   symbol-dce
// CHECK-NEXT: )
//
// A function-anchored pld pass written at the top is nested for the user.
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-host-pipeline)' --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=NAMED
// NAMED: builtin.module(
// NAMED-NEXT:   pld-verify,
// NAMED-NEXT:   pld-select-allreduce-modes,
// NAMED-NEXT:   pld-synthesize-allreduce-signals,
// NAMED-NEXT:   func.func(
// NAMED-NEXT:     pld-materialize-comm-domain-scopes
// NAMED-NEXT:   ),

func.func @f() {
  return
}
