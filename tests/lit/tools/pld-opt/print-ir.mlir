// mlir-opt's IR printing flags: MLIR's own dumps, to standard error, with
// the header `// -----// IR Dump {Before|After} <Name> (<argument>) //----- //`.
// A function pass dumps the function it ran on; --mlir-print-ir-module-scope
// dumps the whole module and names the op in the header.
//
// RUN: pld-opt %s --mlir-disable-threading --pass-pipeline='builtin.module(pld-verify,func.func(cse,canonicalize))' --mlir-print-ir-before=cse -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE
// BEFORE-NOT: IR Dump
// BEFORE: // -----// IR Dump Before CSE (cse) //----- //
// BEFORE-NEXT: func.func @twice(%arg0: i32) -> i32 {
// BEFORE-NEXT:   %0 = arith.addi %arg0, %arg0 : i32
// BEFORE-NEXT:   %1 = arith.addi %arg0, %arg0 : i32
// BEFORE: // -----// IR Dump Before CSE (cse) //----- //
// BEFORE-NEXT: func.func @empty() {
// BEFORE-NOT: IR Dump
//
// RUN: pld-opt %s --mlir-disable-threading --pass-pipeline='builtin.module(pld-verify,func.func(cse,canonicalize))' --mlir-print-ir-after=pld-verify,canonicalize -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER
// AFTER: // -----// IR Dump After PldVerify (pld-verify) //----- //
// AFTER-NEXT: module {
// AFTER-NOT: IR Dump After CSE
// AFTER: // -----// IR Dump After Canonicalizer (canonicalize) //----- //
// AFTER-NEXT: func.func @twice
//
// RUN: pld-opt %s --mlir-disable-threading --pass-pipeline='builtin.module(pld-verify,func.func(cse))' --mlir-print-ir-before-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE-ALL
// BEFORE-ALL: // -----// IR Dump Before PldVerify (pld-verify) //----- //
// BEFORE-ALL: // -----// IR Dump Before CSE (cse) //----- //
// BEFORE-ALL-NEXT: func.func @twice
//
// RUN: pld-opt %s --mlir-disable-threading --pass-pipeline='builtin.module(pld-verify,func.func(cse))' --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER-ALL
// AFTER-ALL: // -----// IR Dump After PldVerify (pld-verify) //----- //
// AFTER-ALL: // -----// IR Dump After CSE (cse) //----- //
// AFTER-ALL-NEXT: func.func @twice(%arg0: i32) -> i32 {
// AFTER-ALL-NEXT:   %0 = arith.addi %arg0, %arg0 : i32
// AFTER-ALL-NEXT:   %1 = arith.addi %0, %0 : i32
// AFTER-ALL: // -----// IR Dump After CSE (cse) //----- //
// AFTER-ALL-NEXT: func.func @empty() {
//
// Only the dump of a pass that changed something: cse changes @twice, not
// @empty; pld-verify changes nothing.
// RUN: pld-opt %s --mlir-disable-threading --pass-pipeline='builtin.module(pld-verify,func.func(cse))' --mlir-print-ir-after-all --mlir-print-ir-after-change -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHANGE
// CHANGE-NOT: PldVerify
// CHANGE: // -----// IR Dump After CSE (cse) //----- //
// CHANGE-NEXT: func.func @twice
// CHANGE-NOT: IR Dump
//
// RUN: pld-opt %s --mlir-disable-threading --pass-pipeline='builtin.module(func.func(cse))' --mlir-print-ir-before=cse --mlir-print-ir-module-scope -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCOPE
// SCOPE: // -----// IR Dump Before CSE (cse) ('func.func' operation: @twice) //----- //
// SCOPE-NEXT: module {
// SCOPE: // -----// IR Dump Before CSE (cse) ('func.func' operation: @empty) //----- //
// SCOPE-NEXT: module {
//
// As in mlir-opt, module scope needs one thread.
// RUN: not pld-opt %s --pass-pipeline='builtin.module(func.func(cse))' --mlir-print-ir-after-all --mlir-print-ir-module-scope 2>&1 | FileCheck %s --check-prefix=SCOPE-THREADS
// SCOPE-THREADS: pld-opt: error: {{.*}}IR print for module scope can't be setup on a pass-manager without disabling multi-threading first
//
// An option naming no pass is no error of the pipeline (it said "invalid
// pass pipeline: for the ...", cli24 L3).
// RUN: not pld-opt %s --pass-pipeline='builtin.module(cse)' --mlir-print-ir-after=no-such-pass 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: {{^}}pld-opt: error: for the --mlir-print-ir-after option: no pass named 'no-such-pass'
// A named pipeline is not a pass (it said "no pass named 'pld-incore-pipeline'
// (did you mean 'pld-incore-pipeline'?)"):
// RUN: not pld-opt %s --pass-pipeline='builtin.module(cse)' --mlir-print-ir-after=pld-incore-pipeline 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: pld-opt: error: {{.*}}for the --mlir-print-ir-after option: 'pld-incore-pipeline' is a pipeline, not a pass: name one of its passes (--dump-pass-pipeline lists them)
// An empty name is refused, as mlir-opt refuses it (it was taken as no
// name at all), and every name that is no pass is said, not the first
// alone (recheck24b L3):
// RUN: not pld-opt %s --pass-pipeline='builtin.module(cse)' --mlir-print-ir-after= 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: {{^}}pld-opt: error: for the --mlir-print-ir-after option: an empty pass name (give pass names, comma separated)
// RUN: not pld-opt %s --pass-pipeline='builtin.module(cse)' --mlir-print-ir-after=cse,nosuch2 --mlir-print-ir-before=bogus 2>&1 | FileCheck %s --check-prefix=EACH
// EACH: {{^}}pld-opt: error: for the --mlir-print-ir-before option: no pass named 'bogus'; for the --mlir-print-ir-after option: no pass named 'nosuch2'

func.func @twice(%x: i32) -> i32 {
  %a = arith.addi %x, %x : i32
  %b = arith.addi %x, %x : i32
  %c = arith.addi %a, %b : i32
  return %c : i32
}

func.func @empty() {
  return
}
