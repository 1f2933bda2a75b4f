// Long options may be written with one dash, as LLVM tools accept them.
//
// RUN: pld-opt %s -pass-pipeline='builtin.module(func.func(cse))' -mlir-print-op-generic -o - | FileCheck %s
// RUN: pld-opt -split-input-file -verify-diagnostics %s -pass-pipeline='builtin.module(cse)'
// RUN: not pld-translate -emit=pto %s -o %t.pto 2>&1 | FileCheck %s --check-prefix=TRANSLATE
// An unknown one is refused as written (it was echoed with two dashes,
// cli24 L11), in its tip too; pld-run says it the same way:
// RUN: not pld-opt %s -no-such-option 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not pld-opt %s --no-such-option 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: not pld-run %s -rankz 2 2>&1 | FileCheck %s --check-prefix=TOOL
// CHECK: "func.func"()
// CHECK: "arith.addi"
// CHECK-NOT: "arith.addi"
// TRANSLATE: @f has no pto.kernel_kind
// UNKNOWN: error: unexpected argument '-no-such-option' found
// UNKNOWN: tip: to pass '-no-such-option' as a value, use '-- -no-such-option'
// TWO: error: unexpected argument '--no-such-option' found
// TWO: tip: to pass '--no-such-option' as a value, use '-- --no-such-option'
// TOOL: error: unexpected argument '-rankz' found
// TOOL: tip: a similar argument exists: '--ranks'

func.func @f(%x: i32) -> i32 {
  %a = arith.addi %x, %x : i32
  %b = arith.addi %x, %x : i32
  return %b : i32
}
