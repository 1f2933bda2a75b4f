// An argument that is not UTF-8 (a file name with the byte 0xff) is a
// command-line error of each tool, with the tool's status for a malformed
// command line (pld-opt and pld-translate 1, as mlir-opt; pld-run and
// pld-bench 2). Each panicked (status 101) reading its arguments before.
// And pld-bench's output to a full disk is an error with status 1 (a
// panic, 101, before), as it is for the other tools.
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
// RUN: sh -c 'pld-bench "$(printf "x\377")"; echo "status $?"' 2>&1 | FileCheck %s --check-prefix=BENCH
// BENCH: pld-bench: argument 'x{{.*}}' is not UTF-8 text
// BENCH: status 2
// RUN: sh -c 'pld-bench list > /dev/full; echo "status $?"' 2>&1 | FileCheck %s --check-prefix=FULL
// FULL: pld-bench: error: cannot write the standard output: No space left on device
// FULL: status 1
