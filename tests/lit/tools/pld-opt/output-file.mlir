// -o FILE: written whole on success; a run with an error leaves the file as
// it was (no empty or partial file); a path that cannot be written is named.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: pld-opt %s -o %t/good.mlir
// RUN: FileCheck %s --check-prefix=GOOD --input-file=%t/good.mlir
// RUN: echo keep > %t/kept.mlir
// RUN: not pld-opt %S/parse-error.mlir -o %t/kept.mlir 2> /dev/null
// RUN: FileCheck %s --check-prefix=KEPT --input-file=%t/kept.mlir
// RUN: not pld-opt %S/parse-error.mlir -o %t/none.mlir 2> /dev/null
// RUN: not test -e %t/none.mlir
// RUN: not pld-opt %s -o %t/missing/dir/out.mlir 2>&1 | FileCheck %s --check-prefix=PATH
//
// GOOD: func.func private @f()
// KEPT: keep
// PATH: pld-opt: error: cannot write '{{.*}}missing/dir/out.mlir': No such file or directory

func.func private @f()
