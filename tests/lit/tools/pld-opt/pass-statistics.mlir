// --mlir-pass-statistics: mlir-opt's pass statistics report on standard
// error. pld passes declare no statistics, and the LLVM 22 packages pld
// builds with count none for upstream passes (their mlir-opt prints the
// same empty report), so the report has only its banner.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-verify,func.func(cse))' --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s
// CHECK: ===-------------------------------------------------------------------------===
// CHECK-NEXT: ... Pass statistics report ...
// CHECK-NEXT: ===-------------------------------------------------------------------------===
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(cse)' 2>&1 >/dev/null | FileCheck %s --check-prefix=NONE --allow-empty
// NONE-NOT: statistics

func.func @f() {
  return
}
