// Damaged bytecode gets an error and exit status 1 from every tool, never
// a crash. The inputs are bytecode of examples/allreduce.mlir with a few
// bytes changed:
// - producer-not-utf8: the producer string has a byte that is not UTF-8,
//   which MLIR quotes into its note as it is (the note's text used to
//   panic the diagnostic handler); shown with U+FFFD in its place.
// - dialect-count: the Dialect section counts 80243531339859201 dialects
//   (MLIR's reader aborts: "LLVM ERROR: SmallVector unable to grow").
// - attr-group: a group of the AttrTypeOffset section has 127 entries
//   where 57 attributes are counted (MLIR's reader writes past its table:
//   "corrupted size vs. prev_size").
//
// RUN: not pld-opt %S/Inputs/producer-not-utf8.mlirbc 2>&1 | FileCheck %s --check-prefix=UTF8
// RUN: not pld-translate --emit=pto %S/Inputs/producer-not-utf8.mlirbc 2>&1 | FileCheck %s --check-prefix=UTF8
// RUN: not pld-run --ranks 2 %S/Inputs/producer-not-utf8.mlirbc 2>&1 | FileCheck %s --check-prefix=UTF8
// UTF8: producer-not-utf8.mlirbc:0:0: error: attempting to parse 1 bytes when only 0 remain
// UTF8: producer-not-utf8.mlirbc:0:0: note: in bytecode version 6 produced by: MLIR�2.1.8
//
// RUN: not pld-opt %S/Inputs/dialect-count.mlirbc 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not pld-translate --emit=pto %S/Inputs/dialect-count.mlirbc 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not pld-run --ranks 2 %S/Inputs/dialect-count.mlirbc 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: dialect-count.mlirbc:0:0: error: damaged bytecode: Dialect (1) section: it counts 80243531339859201 dialects in 25 bytes
//
// RUN: not pld-opt %S/Inputs/attr-group.mlirbc 2>&1 | FileCheck %s --check-prefix=GROUP
// RUN: not pld-run --ranks 2 %S/Inputs/attr-group.mlirbc 2>&1 | FileCheck %s --check-prefix=GROUP
// GROUP: attr-group.mlirbc:0:0: error: damaged bytecode: AttrTypeOffset (3) section: a dialect's group of attributes has 127 entries where 57 of the 57 counted remain
