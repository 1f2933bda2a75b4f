// Standard input is named <stdin> in every message, a read failure too
// (it was '-'), and pld-translate reads its input the same way.
// RUN: not sh -c 'pld-opt - < %S' 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: pld-opt: error: cannot read '<stdin>': Is a directory
// RUN: not sh -c 'pld-translate --emit=pto < %S' 2>&1 | FileCheck %s --check-prefix=TRANSLATE
// TRANSLATE: pld-translate: error: cannot read '<stdin>': Is a directory
module {}
