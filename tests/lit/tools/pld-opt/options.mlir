// --list-passes, --version, -o, the generic printer and debug locations.
//
// RUN: pld-opt --list-passes | FileCheck %s --check-prefix=LIST
// RUN: pld-opt --version | FileCheck %s --check-prefix=VERSION
// RUN: pld-opt %s -o %t && FileCheck %s --input-file=%t
// RUN: pld-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: pld-opt %s --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
// RUN: not pld-opt %t.does-not-exist 2>&1 | FileCheck %s --check-prefix=MISSING

// LIST: pld passes:
// LIST: pld-verify
// VERSION: pld-opt 0.1.0 (MLIR/LLVM 22)
// CHECK: func.func @f
// GENERIC: "func.func"() <{function_type = () -> (), sym_name = "f"}>
// LOC: loc(
// MISSING: pld-opt: error: cannot read '{{.*}}does-not-exist'

func.func @f() {
  return
}
