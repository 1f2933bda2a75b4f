// A malformed command line ends pld-translate with status 1, as it ends
// mlir-translate (clap's own status would be 2): no --emit, an unknown
// format, an unknown option. --help still ends with 0.
//
// RUN: not pld-translate %s 2>&1 | FileCheck %s --check-prefix=NO-EMIT
// RUN: sh -c 'pld-translate %s > /dev/null 2>&1; test $? -eq 1'
// RUN: not pld-translate %s --emit=bogus 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: sh -c 'pld-translate %s --emit=bogus > /dev/null 2>&1; test $? -eq 1'
// RUN: sh -c 'pld-translate %s --emit=pto --bogus > /dev/null 2>&1; test $? -eq 1'
// RUN: sh -c 'pld-translate --help > /dev/null 2>&1; test $? -eq 0'
// NO-EMIT: error: the following required arguments were not provided
// FORMAT: {{^}}pld-translate: error: invalid value 'bogus' for '--emit <EMIT>'
// An option given twice takes its last value, as in mlir-translate (it was
// an error: "cannot be used multiple times"):
// RUN: pld-opt %S/../../../../examples/barrier.mlir --pass-pipeline='builtin.module(pld-to-pto)' -o %t.converted.mlir
// RUN: pld-translate %t.converted.mlir --emit=kernels --emit=pto -o %t.pto
// RUN: FileCheck %s --check-prefix=TWICE-PTO --input-file=%t.pto
// TWICE-PTO: func.func @barrier

func.func @f() {
  return
}
