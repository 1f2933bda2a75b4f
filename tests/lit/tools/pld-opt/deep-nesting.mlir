// Input nested deeper than pld's parser takes (1000 levels of brackets,
// regions or attributes) gets a located error and exit status 1 from every
// tool, never a stack overflow (4000 nested scf.if and 10000 nested `[`
// used to abort all three).
//
// RUN: python3 -c "print('func.func @k() attributes {x = ' + '[' * 10000 + ']' * 10000 + '} {\n  return\n}')" > %t.attr.mlir
// RUN: python3 -c "print('func.func @k(%%c: i1) attributes {pld.kind = #pld.func_kind<\"incore\">} {\n' + 'scf.if %%c {\n' * 4000 + '}\n' * 4000 + 'return\n}')" > %t.if.mlir
// RUN: not pld-opt %t.attr.mlir 2>&1 | FileCheck %s --check-prefix=ATTR
// RUN: not pld-translate --emit=pto %t.attr.mlir 2>&1 | FileCheck %s --check-prefix=ATTR
// RUN: not pld-run %t.attr.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=ATTR
// RUN: not pld-opt %t.if.mlir 2>&1 | FileCheck %s --check-prefix=IF
// RUN: not pld-run %t.if.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=IF
//
// ATTR: attr.mlir:1:1031: error: nesting deeper than 1000 levels of brackets, regions or attributes; pld's parser accepts at most 1000
// ATTR-NEXT: {{^\.\.\.\[\[\[}}
// IF: if.mlir:1001:11: error: nesting deeper than 1000 levels
// IF-NEXT: scf.if %c {
// IF-NEXT: {{^          \^}}
