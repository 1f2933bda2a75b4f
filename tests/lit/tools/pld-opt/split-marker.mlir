// --split-input-file takes the marker it splits at, as in mlir-opt 22
// (the bare flag or an empty value: `// -----`), --output-split-marker the
// line between the outputs, and --verify-diagnostics=only-expected checks
// the expected diagnostics only: pld-opt read both values as booleans
// ("'// =====' is not a boolean value"; --split-input-file=false turned
// splitting off where mlir-opt splits at `false`) (cli24 M1).
//
// RUN: split-file %s %t
// RUN: pld-opt %t/markers.mlir --split-input-file='// =====' --output-split-marker='// ===== out' | FileCheck %s --check-prefix=OWN
// OWN: func.func @first
// OWN-NEXT: return
// OWN-NEXT: }
// OWN-NEXT: }
// OWN-EMPTY:
// OWN-NEXT: // ===== out
// OWN-NEXT: module {
// OWN-NEXT: func.func @second
// OWN: func.func @third
// OWN: // ===== out
// OWN-NEXT: module {
// OWN-NEXT: func.func @fourth
// The default marker, for the bare flag and an empty value:
// RUN: pld-opt %t/markers.mlir --split-input-file | FileCheck %s --check-prefix=DEFAULT
// RUN: pld-opt %t/markers.mlir --split-input-file= | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: func.func @first
// DEFAULT: func.func @second
// DEFAULT: // -----
// DEFAULT-NEXT: module {
// DEFAULT-NEXT: func.func @third
// DEFAULT: func.func @fourth
// `false` is a marker like any other (no line starts with it: one chunk).
// RUN: pld-opt %t/markers.mlir --split-input-file=false | FileCheck %s --check-prefix=ONE --implicit-check-not=//
// ONE: func.func @first
// ONE: func.func @fourth
// pld-translate reads the marker too (each chunk is refused on its own,
// at its line of the whole input).
// RUN: not pld-translate %t/markers.mlir --emit=pto --split-input-file='// =====' 2>&1 | FileCheck %s --check-prefix=TRANSLATE
// TRANSLATE: markers.mlir:1:1: error: 'func.func' op @first has no pto.kernel_kind
// TRANSLATE: markers.mlir:5:1: error: 'func.func' op @second has no pto.kernel_kind
// TRANSLATE: markers.mlir:13:1: error: 'func.func' op @fourth has no pto.kernel_kind
// An unexpected diagnostic fails =all and passes =only-expected, where
// a missing one still fails.
// RUN: not pld-opt %t/verify.mlir --split-input-file --verify-diagnostics=all 2>&1 | FileCheck %s --check-prefix=ALL
// ALL: verify.mlir:2:8: error: unexpected error: 'arith.addi' op requires the same type
// ALL: verify.mlir:7:8: error: unexpected error: 'arith.addi' op requires the same type
// ALL: verify.mlir:8:6: error: expected error "never produced" was not produced
// RUN: not pld-opt %t/verify.mlir --split-input-file --verify-diagnostics=only-expected -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONLY
// ONLY-NOT: unexpected
// ONLY: verify.mlir:8:6: error: expected error "never produced" was not produced
// ONLY-NOT: unexpected
// RUN: not pld-opt %t/verify.mlir --verify-diagnostics=maybe 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: error: invalid value 'maybe' for '--verify-diagnostics[=<MODE>]'
// MODE-NEXT: [possible values: all, only-expected]

//--- markers.mlir
func.func @first() {
  return
}
// ===== the own marker; its line is dropped with it
func.func @second() {
  return
}
// -----
func.func @third() {
  return
}
   // =====
func.func @fourth() {
  return
}
//--- verify.mlir
func.func @f(%x: i32) {
  %0 = "arith.addi"(%x, %x) : (i32, i32) -> i64
  return
}
// -----
func.func @g(%x: i32) {
  %0 = "arith.addi"(%x, %x) : (i32, i32) -> i64
  // expected-error@+1 {{never produced}}
  return
}
