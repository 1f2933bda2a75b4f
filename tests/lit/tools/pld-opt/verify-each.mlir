// --verify-each (on by default, as in mlir-opt): MLIR's verifier and pld's
// semantic verifier run after every pass; --verify-each=false skips both
// (the input is still verified once after parsing). The second chunk
// is invalid, so it prints nothing and the exit status is 1.
//
// RUN: not pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-verify,canonicalize)' | FileCheck %s
// RUN: not pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-verify,canonicalize)' --verify-each | FileCheck %s
// RUN: not pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-verify,canonicalize)' --verify-each=true | FileCheck %s
// RUN: not pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-verify,canonicalize)' --verify-each=false | FileCheck %s
// RUN: not pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-verify,canonicalize)' -verify-each=false | FileCheck %s
// LLVM's boolean options also take 1 and 0.
// RUN: not pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-verify,canonicalize)' --verify-each=0 | FileCheck %s
// RUN: not pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-verify,canonicalize)' --verify-each=1 | FileCheck %s
// CHECK: func.func @f
// CHECK-NOT: func.func @k
//
// RUN: not pld-opt %s --verify-each=maybe 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: invalid value 'maybe' for '--verify-each[=<bool>]'
// Only LLVM's words, as mlir-opt takes them: yes and on were taken too.
// RUN: not pld-opt %s --verify-each=yes 2>&1 | FileCheck %s --check-prefix=YES
// YES: error: invalid value 'yes' for '--verify-each[=<bool>]': 'yes' is not a boolean value: give true, false, 1 or 0
// RUN: not pld-opt %s --verify-each=on 2>&1 | FileCheck %s --check-prefix=BADON
// BADON: 'on' is not a boolean value
// RUN: not pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-verify,canonicalize)' --verify-each=False | FileCheck %s
// An option given twice takes its last value, as in mlir-opt (it was an
// error: "cannot be used multiple times"):
// RUN: not pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-verify,canonicalize)' --verify-each=false --verify-each=true | FileCheck %s
// RUN: not pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-verify)' --pass-pipeline='builtin.module(pld-verify,canonicalize)' | FileCheck %s
//
// The input is verified even so.
// RUN: not pld-opt %s --split-input-file --verify-each=false 2>&1 | FileCheck %s --check-prefix=INVALID
// INVALID: verify-each.mlir:[[@LINE+10]]:8: error: 'pld.tensor_broadcast' op root = 5

func.func @f() {
  return
}

// -----

!sig = tensor<2x1xi32, #pld.dist>
func.func @k(%s: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_broadcast"(%s, %s) {root = 5 : i32} : (!sig, !sig) -> !sig
  return
}
