// Standard input is named <stdin> in every message, a read failure too
// (it was '-'), and pld-translate reads its input the same way.
// RUN: not sh -c 'pld-opt - < %S' 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: pld-opt: error: cannot read '<stdin>': Is a directory
// RUN: not sh -c 'pld-translate --emit=pto < %S' 2>&1 | FileCheck %s --check-prefix=TRANSLATE
// TRANSLATE: pld-translate: error: cannot read '<stdin>': Is a directory
// An input whose first 64 KiB hold a NUL byte (not MLIR text, not
// bytecode) is refused at once: /dev/zero was read to the 2 GiB limit
// first, seconds and 2 GiB of memory.
// RUN: not pld-opt /dev/zero 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: pld-opt: error: cannot read '/dev/zero': not MLIR: a NUL byte at offset 0 (MLIR text has none, and MLIR bytecode begins with ML\xefR)
// RUN: not sh -c 'printf "module {}\000" | pld-run -' 2>&1 | FileCheck %s --check-prefix=NUL
// NUL: pld-run: error: cannot read '<stdin>': not MLIR: a NUL byte at offset 9
module {}
