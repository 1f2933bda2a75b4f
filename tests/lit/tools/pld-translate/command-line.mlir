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
// FORMAT: error: invalid value 'bogus' for '--emit <EMIT>'

func.func @f() {
  return
}
