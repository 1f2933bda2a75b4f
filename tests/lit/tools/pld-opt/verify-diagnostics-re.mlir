// --verify-diagnostics reads the annotations as mlir-opt 22 does, the -re
// forms included ({{...}} a regular expression, the rest literal), and
// reports a mismatch as mlir-opt does: position, message, the source line
// and a caret (^~~~ under an annotation's text). Every input here uses
// builtin ops only, so stock mlir-opt runs on it and must agree.
//
// RUN: rm -rf %t && split-file %s %t && cd %t
//
// Annotations both tools accept: every designator, -re with alternatives,
// classes and anchors, notes, one annotation for several diagnostics of
// its line, a diagnostic without a location.
// RUN: pld-opt --verify-diagnostics --split-input-file good.mlir -o /dev/null
// RUN: mlir-opt --verify-diagnostics --split-input-file good.mlir -o /dev/null
//
// Mismatches, the same from both tools but for the regex library's wording
// of an invalid expression: a regex with no end and an invalid one (at
// parse time, first), a diagnostic in another file, an unexpected error,
// a severity that differs (a near miss), '.' outside {{ }} being literal,
// an error never produced.
// RUN: not pld-opt --verify-diagnostics bad.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not mlir-opt --verify-diagnostics bad.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: bad.mlir:1:4: error: found start of regex with no end '}}'
// BAD-NEXT: {{^}}// expected-error-re {{.*}}no end {{.*}}here
// BAD-NEXT: {{^}}   ^~~~~~~~~~~~~{{$}}
// BAD-NEXT: bad.mlir:2:4: error: invalid regex: {{.+}}
// BAD-NEXT: {{^}}// expected-error-re {{.*}}bad
// BAD-NEXT: {{^}}   ^~~~~~~~~~~~~~~{{$}}
// BAD-NEXT: other.mlir:3:4: error: unexpected error: 'arith.addi' op requires the same type for all operands and results
// BAD-NEXT: bad.mlir:8:8: error: unexpected error: 'arith.addi' op requires the same type for all operands and results
// BAD-NEXT: {{^}}  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i64{{$}}
// BAD-NEXT: {{^}}       ^{{$}}
// BAD-NEXT: bad.mlir:12:6: error: 'error' diagnostic emitted when expecting a 'warning'
// BAD-NEXT: {{^}}  // expected-warning@+1
// BAD-NEXT: {{^}}     ^{{$}}
// BAD-NEXT: bad.mlir:18:8: error: unexpected error: 'arith.addi' op requires the same type for all operands and results
// BAD-NEXT: {{^}}  %0 = "arith.addi"
// BAD-NEXT: {{^}}       ^{{$}}
// BAD-NEXT: bad.mlir:12:6: error: expected warning "requires the same type" was not produced
// BAD-NEXT: {{^}}  // expected-warning@+1
// BAD-NEXT: {{^}}     ^~~~~~~~~~~~~~~~~~~~~~{{$}}
// BAD-NEXT: bad.mlir:17:6: error: expected error "'arith.add.' op" was not produced
// BAD-NEXT: {{^}}  // expected-error-re@+1
// BAD-NEXT: {{^}}     ^~~~~~~~~~~~~~~{{$}}
// BAD-NEXT: bad.mlir:22:6: error: expected error "never produced" was not produced
// BAD-NEXT: {{^}}  // expected-error@+1
// BAD-NEXT: {{^}}     ^~~~~~~~~~~~~~{{$}}
// BAD-NOT: error:
//
// Lines mlir-opt does not read as annotations and silently skips (so they
// could never fail): clang's markers and '*', text after the braces, a tab
// before them. pld-opt refuses each, at it.
// RUN: mlir-opt --verify-diagnostics skipped.mlir -o /dev/null
// RUN: not pld-opt --verify-diagnostics skipped.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=SKIPPED
// SKIPPED: skipped.mlir:2:6: error: '@#marker' is a clang -verify marker, which mlir-opt 22 does not read (it ignores this line): use @+N, @-N, @above, @below or @unknown
// SKIPPED-NEXT: {{^}}  // expected-error@#marker
// SKIPPED-NEXT: {{^}}     ^{{$}}
// SKIPPED-NEXT: skipped.mlir:3:6: error: '@*' is clang's -verify syntax, which mlir-opt 22 does not read (it ignores this line): use @unknown for a diagnostic without a location, or @+N, @-N, @above, @below or @unknown
// SKIPPED: skipped.mlir:4:6: error: an annotation's '}}' ends its line (mlir-opt ignores this line, so the annotation could never fail)
// SKIPPED: skipped.mlir:5:6: error: expected '{{[{][{]}}<message>}}' after the annotation, separated by spaces only (mlir-opt ignores this line, so the annotation could never fail)
// SKIPPED-NOT: error:
//
// mlir-opt reads an offset with a leading 0 as octal: '@+010' is 8 lines
// down (mlir-opt accepts octal.mlir, whose error is there); pld-opt
// refuses the spelling rather than guess.
// RUN: mlir-opt --verify-diagnostics octal.mlir -o /dev/null
// RUN: not pld-opt --verify-diagnostics octal.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=OCTAL
// OCTAL: octal.mlir:1:4: error: '@+010': mlir-opt reads a number with a leading 0 as octal; write it without the 0

//--- good.mlir
func.func @alternation(%a: i32) -> i64 {
  // expected-error-re@+1 {{'arith.addi' op requires {{(the same|all)}} type for all {{[a-z]+}} and results}}
  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i64
  return %0 : i64
}

// -----

// expected-note-re@below {{see existing symbol {{[a-z]+}} here}}
func.func @twice() { return }
func.func @twice() { return }
// expected-error-re@above {{redefinition of symbol named '{{t[a-z]+e}}'}}

// -----

// One annotation covers every diagnostic of its kind on its line.
// expected-error @+1 {{requires the same type}}
func.func @a(%x: i32) -> i64 { %0 = "arith.addi"(%x, %x) : (i32, i32) -> i64 return %0 : i64 } func.func @b(%x: i32) -> i64 { %0 = "arith.addi"(%x, %x) : (i32, i32) -> i64 return %0 : i64 }

// -----

func.func @nowhere(%a: i32) -> i64 {
  // expected-error-re  @unknown   {{{{^}}'arith.addi' op requires the same type{{.*$}}}}
  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i64 loc(unknown)
  return %0 : i64
}

//--- bad.mlir
// expected-error-re {{no end {{here}}
// expected-error-re {{bad {{[}} class}}
func.func @elsewhere(%a: i32) -> i64 {
  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i64 loc("other.mlir":3:4)
  return %0 : i64
}
func.func @unexpected(%a: i32) -> i64 {
  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i64
  return %0 : i64
}
func.func @near_miss(%a: i32) -> i64 {
  // expected-warning@+1 {{requires the same type}}
  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i64
  return %0 : i64
}
func.func @literal_dot(%a: i32) -> i64 {
  // expected-error-re@+1 {{'arith.add.' op}}
  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i64
  return %0 : i64
}
func.func @never() {
  // expected-error@+1 {{never produced}}
  return
}

//--- skipped.mlir
func.func @f() {
  // expected-error@#marker {{clang marker}}
  // expected-error@* {{clang anywhere}}
  // expected-error {{trailing}} text
  // expected-error	{{tab}}
  return
}

//--- octal.mlir
// expected-error@+010 {{requires the same type}}
func.func @f(%a: i32) -> i64 {
  // Lines
  // to
  // make
  // eight
  // lines
  // down
  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i64
  return %0 : i64
}
