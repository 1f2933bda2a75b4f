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
//
// Bytecode nested deeper than pld takes: stock mlir-opt writes a type
// nested 20000 levels deep from a chain of aliases (each one level deeper
// than the last, which text does not count past 1000 levels), and MLIR's
// printer overflowed the stack on it. Measured once read: the region
// level of each op plus its deepest attribute or type: @f is at level 1
// (in the module), its attribute dictionary holds function_type, a type
// attribute (2) of a function type (3) of 20000 tuples (4..20003) of i32
// (20004): 20005.
// RUN: python3 -c "print('!t0 = tuple<i32>'); [print(f'!t{i} = tuple<!t{i-1}>') for i in range(1, 20000)]; print('func.func private @f(%%a: !t19999)')" > %t.chain.mlir
// RUN: mlir-opt %t.chain.mlir --emit-bytecode -o %t.deep.mlirbc
// RUN: not pld-opt %t.deep.mlirbc 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: not pld-translate --emit=pto %t.deep.mlirbc 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: not pld-run --ranks 2 %t.deep.mlirbc 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: deep.mlirbc:0:0: error: the bytecode nests 20005 levels deep (regions, attributes and types); pld accepts at most 1016
// Text within 1000 levels reads back from its bytecode.
// RUN: python3 -c "print('module {\nfunc.func private @f(%%a: ' + 'tuple<' * 998 + 'i32' + '>' * 998 + ')\n}')" > %t.998.mlir
// RUN: pld-opt %t.998.mlir --emit-bytecode | pld-opt - | FileCheck %s --check-prefix=BACK
// BACK: func.func private @f(tuple<tuple<
