// Input nested deeper than pld's parser takes (1000 levels of brackets of
// any kind, regions, types, attributes, affine operators in a row, and
// aliases as deep as their definitions) gets a located error and exit
// status 1 from every tool, never a stack overflow (4000 nested scf.if,
// 10000 nested `[`, 20000 nested `tuple<`, a chain of 100000 aliases and an
// affine expression of 100000 terms used to abort all three).
//
// RUN: python3 -c "print('func.func @k() attributes {x = ' + '[' * 10000 + ']' * 10000 + '} {\n  return\n}')" > %t.attr.mlir
// RUN: python3 -c "print('func.func @k(%%c: i1) attributes {pld.kind = #pld.func_kind<\"incore\">} {\n' + 'scf.if %%c {\n' * 4000 + '}\n' * 4000 + 'return\n}')" > %t.if.mlir
// RUN: not pld-opt %t.attr.mlir 2>&1 | FileCheck %s --check-prefix=ATTR
// RUN: not pld-translate --emit=pto %t.attr.mlir 2>&1 | FileCheck %s --check-prefix=ATTR
// RUN: not pld-run %t.attr.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=ATTR
// RUN: not pld-opt %t.if.mlir 2>&1 | FileCheck %s --check-prefix=IF
// RUN: not pld-run %t.if.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=IF
//
// ATTR: attr.mlir:1:1031: error: nesting deeper than 1000 levels of brackets, regions, types or attributes; pld's parser accepts at most 1000
// ATTR-NEXT: {{^\.\.\.\[\[\[}}
// IF: if.mlir:1001:11: error: nesting deeper than 1000 levels
// IF-NEXT: scf.if %c {
// IF-NEXT: {{^          \^}}
//
// Types: `<` nests like any bracket. The 1000th `tuple<` is level 1001
// (the parameter list's `(` is level 1); every tool and standard input
// refuse it at its `<`, also without the implicit module.
// RUN: python3 -c "print('func.func @f(%%a: ' + 'tuple<' * 20000 + 'i32' + '>' * 20000 + ')')" > %t.tuple.mlir
// RUN: not pld-opt %t.tuple.mlir 2>&1 | FileCheck %s --check-prefix=TUPLE
// RUN: not pld-opt --no-implicit-module %t.tuple.mlir 2>&1 | FileCheck %s --check-prefix=TUPLE
// RUN: not pld-translate --emit=pto %t.tuple.mlir 2>&1 | FileCheck %s --check-prefix=TUPLE
// RUN: not pld-run %t.tuple.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=TUPLE
// RUN: not pld-opt - < %t.tuple.mlir 2>&1 | FileCheck %s --check-prefix=STDIN
// TUPLE: tuple.mlir:1:6017: error: nesting deeper than 1000 levels of brackets, regions, types or attributes; pld's parser accepts at most 1000
// STDIN: <stdin>:1:6017: error: nesting deeper than 1000 levels of brackets
//
// RUN: python3 -c "print('func.func @f(%%a: ' + 'tensor<2x' * 20000 + 'i32' + '>' * 20000 + ')')" > %t.tensor.mlir
// RUN: not pld-opt %t.tensor.mlir 2>&1 | FileCheck %s --check-prefix=TENSOR
// TENSOR: tensor.mlir:1:9015: error: nesting deeper than 1000 levels
// RUN: python3 -c "print('func.func @f(%%a: ' + '!pld.ptr<memref<' * 20000 + 'i32' + '>>' * 20000 + ')')" > %t.mixed.mlir
// RUN: not pld-translate --emit=pto %t.mixed.mlir 2>&1 | FileCheck %s --check-prefix=MIXED
// MIXED: mixed.mlir:1:8017: error: nesting deeper than 1000 levels
//
// An alias nests as deeply as its definition: `#a999 = [#a998]` is 1000
// levels deep though no line nests more than one.
// RUN: python3 -c "print('#a0 = [1]'); [print(f'#a{i} = [#a{i-1}]') for i in range(1, 100000)]; print('func.func private @f() attributes {x = #a99999}')" > %t.alias.mlir
// RUN: not pld-opt %t.alias.mlir 2>&1 | FileCheck %s --check-prefix=ALIAS
// RUN: not pld-run %t.alias.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=ALIAS
// ALIAS: alias.mlir:1001:11: error: nesting deeper than 1000 levels with alias '#a999' expanded (an alias nests as deeply as its definition); pld's parser accepts at most 1000
// ALIAS-NEXT: #a1000 = [#a999]
// ALIAS-NEXT: {{^          \^}}
//
// Each operator of an affine expression written in a row nests it one
// level deeper: `<` and `(` are two levels, the 999th `+` is level 1001.
// RUN: python3 -c "print('#m = affine_map<(d0) -> (' + 'd0 + ' * 100000 + 'd0)>')" > %t.affine.mlir
// RUN: not pld-opt %t.affine.mlir 2>&1 | FileCheck %s --check-prefix=AFFINE
// AFFINE: affine.mlir:1:5019: error: nesting deeper than 1000 levels of brackets and affine expression operators (each operator in a row nests the expression one level deeper); pld's parser accepts at most 1000
//
// 1000 levels are taken, of each kind: written, printed and read back
// (the explicit `module {` is level 1, as it is in the printed module).
// RUN: python3 -c "print('module {\nfunc.func private @f(%%a: ' + 'tuple<' * 998 + 'i32' + '>' * 998 + ')\n}')" > %t.ok-tuple.mlir
// RUN: pld-opt %t.ok-tuple.mlir | pld-opt | FileCheck %s --check-prefix=OK-TUPLE
// OK-TUPLE: func.func private @f(tuple<tuple<tuple<
// RUN: python3 -c "print('#a0 = [1]'); [print(f'#a{i} = [#a{i-1}]') for i in range(1, 998)]; print('module {\nfunc.func private @f() attributes {x = #a997}\n}')" > %t.ok-alias.mlir
// RUN: pld-opt %t.ok-alias.mlir | pld-opt | FileCheck %s --check-prefix=OK-ALIAS
// OK-ALIAS: func.func private @f() attributes {x = {{\[\[\[}}
// RUN: python3 -c "print('module {\nfunc.func private @f() attributes {x = affine_map<(d0) -> (' + '-' * 996 + 'd0)>}\n}')" > %t.ok-affine.mlir
// RUN: pld-opt %t.ok-affine.mlir | pld-opt | FileCheck %s --check-prefix=OK-AFFINE
// OK-AFFINE: #map = affine_map<(d0) -> (d0)>
// OK-AFFINE: func.func private @f() attributes {x = #map}
//
// `->`, `>=` and `<=` are no brackets: 2000 of each in a set nest
// nothing, and the arrow of `tuple<(i32) -> i32, tuple<...` closes no
// `<`: the `(` of the 999th such tuple is level 1001.
// RUN: python3 -c "print('func.func private @f() attributes {s = affine_set<(d0) : (' + 'd0 >= 0, d0 <= 9, ' * 2000 + 'd0 == 0)>}')" > %t.ok-set.mlir
// RUN: pld-opt %t.ok-set.mlir | FileCheck %s --check-prefix=OK-SET
// OK-SET: affine_set<(d0) : (d0 >= 0, -d0 + 9 >= 0,
// RUN: python3 -c "print('func.func private @f(%%a: ' + 'tuple<(i32) -> i32, ' * 2000 + 'i32' + '>' * 2000 + ')')" > %t.arrows.mlir
// RUN: not pld-opt %t.arrows.mlir 2>&1 | FileCheck %s --check-prefix=ARROWS
// ARROWS: arrows.mlir:1:19992: error: nesting deeper than 1000 levels of brackets
