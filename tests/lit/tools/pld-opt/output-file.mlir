// -o FILE: written whole on success; a run with an error leaves the file as
// it was (no empty or partial file); a path that cannot be written is named.
// Only a regular file is replaced: -o /dev/null writes into the device (a
// rename over it, as root, used to turn /dev/null into a regular file for
// the whole machine), and -o through a symbolic link writes the file it names.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: pld-opt %s -o %t/good.mlir
// RUN: FileCheck %s --check-prefix=GOOD --input-file=%t/good.mlir
// An existing file keeps its permissions (it became 644, as the temporary
// file it is replaced by was made).
// RUN: touch %t/private.mlir && chmod 600 %t/private.mlir
// RUN: pld-opt %s -o %t/private.mlir
// RUN: stat -c %%a %t/private.mlir | FileCheck %s --check-prefix=MODE
// MODE: {{^}}600{{$}}
// RUN: echo keep > %t/kept.mlir
// RUN: not pld-opt %S/parse-error.mlir -o %t/kept.mlir 2> /dev/null
// RUN: FileCheck %s --check-prefix=KEPT --input-file=%t/kept.mlir
// RUN: not pld-opt %S/parse-error.mlir -o %t/none.mlir 2> /dev/null
// RUN: not test -e %t/none.mlir
// RUN: pld-opt %s -o /dev/null
// RUN: test -c /dev/null
// RUN: ln -s good.mlir %t/link.mlir
// RUN: echo 'func.func private @g()' | pld-opt - -o %t/link.mlir
// RUN: test -L %t/link.mlir
// RUN: FileCheck %s --check-prefix=LINKED --input-file=%t/good.mlir
// RUN: not pld-opt %s -o %t/missing/dir/out.mlir 2>&1 | FileCheck %s --check-prefix=PATH
// The error is that of the call that failed: here making the temporary
// file beside /proc/version (no file can be made in /proc).
// RUN: not pld-opt %s -o /proc/version 2>&1 | FileCheck %s --check-prefix=PROC
// An empty -o names no file (it said it could not rename a temporary
// file over it):
// RUN: not pld-opt %s -o '' 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: pld-opt: error: cannot write '': -o names no file (use -o - for standard output)
//
// GOOD: func.func private @f()
// KEPT: keep
// LINKED: func.func private @g()
// PATH: pld-opt: error: cannot write '{{.*}}missing/dir/out.mlir': cannot write the temporary file '{{.*}}missing/dir/.out.mlir.{{[0-9]+}}.tmp' to rename over it: No such file or directory
// PROC: pld-opt: error: cannot write '/proc/version': cannot write the temporary file '/proc/.version.{{[0-9]+}}.tmp' to rename over it: No such file or directory

func.func private @f()
