// A reader that stops early (`pld-opt big.mlir | head -1`) ends pld-opt
// (and pld-translate, the same writer) quietly with the status of SIGPIPE,
// 141, as mlir-opt ends (they said "error: cannot write to standard output:
// Broken pipe", status 1). The output is larger than a pipe's buffer, so the write fails.
//
// RUN: python3 -c "print(''.join('func.func @f%%d() {\n  return\n}\n' %% i for i in range(20000)))" > %t.mlir
// RUN: sh -c '(pld-opt %t.mlir; echo "status $?" >&2) | head -c 1 > /dev/null' 2>&1 | FileCheck %s
// CHECK-NOT: error
// CHECK: status 141
