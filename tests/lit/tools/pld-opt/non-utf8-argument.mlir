// An argument that is not UTF-8 (a file name with the byte 0xff) is a
// command-line error of each tool, with the tool's status for a malformed
// command line (pld-opt and pld-translate 1, as mlir-opt; pld-run and
// pld-bench 2). Each panicked (status 101) reading its arguments before.
// (pld-bench's own cases, a non-UTF-8 argument and a full standard output,
// are in bench/tests/command_line.rs: this suite runs the binaries of
// pld-tools, which `cargo test` builds for it.)
//
// RUN: sh -c 'pld-opt "$(printf "x\377.mlir")"; echo "status $?"' 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: pld-opt: error: argument 1 ('x{{.*}}.mlir') is not UTF-8 text; pld-opt takes paths and names as text
// OPT: status 1
// RUN: sh -c 'pld-translate --emit=pto "$(printf "x\377.mlir")"; echo "status $?"' 2>&1 | FileCheck %s --check-prefix=TRANSLATE
// TRANSLATE: pld-translate: error: argument 2 ('x{{.*}}.mlir') is not UTF-8 text
// TRANSLATE: status 1
// RUN: sh -c 'pld-run --kernel "$(printf "k\377")" %s; echo "status $?"' 2>&1 | FileCheck %s --check-prefix=SIM
// SIM: pld-run: error: argument 2 ('k{{.*}}') is not UTF-8 text
// SIM: status 2
