// A malformed command line ends pld-opt with status 1, as it ends mlir-opt
// (clap's own status would be 2): an unknown option, an option value that
// does not parse. --help and --version still end with 0.
//
// RUN: not pld-opt %s --bogus 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: sh -c 'pld-opt %s --bogus > /dev/null 2>&1; test $? -eq 1'
// RUN: sh -c 'pld-opt %s -bogus > /dev/null 2>&1; test $? -eq 1'
// RUN: not pld-opt %s --pld-world-size=x 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: sh -c 'pld-opt %s --pld-world-size=x > /dev/null 2>&1; test $? -eq 1'
// RUN: sh -c 'pld-opt --help > /dev/null 2>&1; test $? -eq 0'
// RUN: sh -c 'pld-opt --version > /dev/null 2>&1; test $? -eq 0'
// The same input with a good command line is fine; -p is mlir-opt's short
// name of --pass-pipeline (cli24 L5).
// RUN: pld-opt %s --pld-world-size=4 | FileCheck %s
// RUN: pld-opt %s -p 'builtin.module(cse)' | FileCheck %s
// RUN: pld-opt %s -p='builtin.module(cse)' | FileCheck %s
// UNKNOWN: {{^}}pld-opt: error: unexpected argument '--bogus' found
// The usage is the whole one, INPUT optional, also after an input.
// UNKNOWN: Usage: pld-opt [OPTIONS] [INPUT]
// An upstream pass option that does not parse: LLVM's option parser
// names the program (its message began with ": " before).
// RUN: not pld-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations=1e30})' 2>&1 | FileCheck %s --check-prefix=UPSTREAM
// UPSTREAM: {{^}}pld-opt: for the --max-iterations option: '1e30' value invalid for long argument!
// UPSTREAM-NEXT: pld-opt: error: invalid pass pipeline: pass 'canonicalize': failed to add `canonicalize` with options `max-iterations=1e30`
// VALUE: {{^}}pld-opt: error: invalid value 'x' for '--pld-world-size <N>'
// A flag takes a value as LLVM's options do (=true, =false, =1, =0, ...;
// `unexpected value 'false'` before). (--split-input-file takes a marker,
// as in mlir-opt 22: split-marker.mlir.)
// RUN: pld-opt %s --mlir-print-debuginfo=false --mlir-disable-threading=TRUE | FileCheck %s --check-prefix=NOLOC
// RUN: pld-opt %s -mlir-print-debuginfo=1 | FileCheck %s --check-prefix=LOC
// RUN: not pld-opt %s --mlir-timing=yes 2>&1 | FileCheck %s --check-prefix=BOOL
// NOLOC-NOT: loc(
// LOC: loc(
// BOOL: error: invalid value 'yes' for '--mlir-timing[=<bool>]': 'yes' is not a boolean value: give true, false, 1 or 0
// CHECK: func.func @f

func.func @f() {
  return
}
