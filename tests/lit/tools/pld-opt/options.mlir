// --list-passes, --version, -o, the generic printer and debug locations.
//
// RUN: pld-opt --list-passes | FileCheck %s --check-prefix=LIST
// RUN: pld-opt --version | FileCheck %s --check-prefix=VERSION
// RUN: pld-opt %s -o %t && FileCheck %s --input-file=%t
// RUN: pld-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: pld-opt %s --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
// RUN: not pld-opt %t.does-not-exist 2>&1 | FileCheck %s --check-prefix=MISSING

// The flags of mlir-opt that pld-opt takes, in --help (see pld-opt.md).
// RUN: pld-opt --help | FileCheck %s --check-prefix=HELP
// HELP: --mlir-print-ir-before <pass-arg>
// HELP: --mlir-print-ir-before-all
// HELP: --mlir-print-ir-after <pass-arg>
// HELP: --mlir-print-ir-after-all
// HELP: --mlir-print-ir-after-change
// HELP: --mlir-print-ir-after-failure
// HELP: --mlir-print-ir-module-scope
// HELP: --mlir-print-debuginfo
// HELP: --mlir-print-op-generic
// HELP: --mlir-elide-elementsattrs-if-larger <uint>
// HELP: --mlir-disable-threading
// HELP: --mlir-use-nameloc-as-prefix
// HELP: --mlir-timing
// HELP: --mlir-pass-statistics
// HELP: --dump-pass-pipeline
// HELP: --allow-unregistered-dialect
// HELP: --emit-bytecode
// HELP: --verify-each[=<bool>]
// HELP: --no-implicit-module

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
