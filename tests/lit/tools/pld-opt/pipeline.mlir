// --pass-pipeline mixes pld passes and upstream MLIR passes, nested or not;
// the IR is verified after every pass and can be printed after each.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-verify, canonicalize, func.func(cse), pld-verify)' | FileCheck %s
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-verify,func.func(canonicalize{max-iterations=3}))' --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=DUMP
// RUN: not pld-opt %s --pass-pipeline='builtin.module(no-such-pass)' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not pld-opt %s --pass-pipeline='func.func(cse)' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// `any(...)` runs on the top-level op, as mlir-opt runs it (it was refused
// with the hint 'builtin.module(any...)': cli24 L4):
// RUN: pld-opt %s --pass-pipeline='any(pld-verify, canonicalize, func.func(cse))' | FileCheck %s
// RUN: not pld-opt %s --pass-pipeline='builtin.module(cse' 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-verify{x=1})' 2>&1 | FileCheck %s --check-prefix=OPTIONS

// CHECK-LABEL: func.func @host
// canonicalize folded the constant arithmetic into the allocation size:
// CHECK: %[[C:.*]] = arith.constant 256 : i64
// CHECK-NOT: arith.muli
// CHECK: "pld.tensor_alloc_window_buffer"(%[[C]])

// DUMP: // -----// IR Dump After PldVerify (pld-verify) //----- //
// DUMP: // -----// IR Dump After Canonicalizer (canonicalize) //----- //
// DUMP-NEXT: func.func @host
// DUMP: arith.constant 256 : i64

// UNKNOWN: pld-opt: error: invalid pass pipeline: pass 'no-such-pass':
// ANCHOR: pld-opt: error: invalid pass pipeline: the pipeline must be anchored on builtin.module (or any), as in 'builtin.module(func.func(...))'
// SYNTAX: pld-opt: error: invalid pass pipeline: expected ')'
// OPTIONS: pld-opt: error: invalid pass pipeline: pass 'pld-verify' takes no options

func.func @host() attributes {pld.kind = #pld.func_kind<"host">} {
  %a = arith.constant 64 : i64
  %b = arith.constant 4 : i64
  %bytes = arith.muli %a, %b : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %v = "pld.tensor_window"(%buf) : (!pld.ptr) -> tensor<64xf32, #pld.dist>
  return
}

// A mistyped pld pass gets a suggestion.
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-lower-composit-ops)' 2>&1 | FileCheck %s --check-prefix=TYPO
// TYPO: pass 'pld-lower-composit-ops' (did you mean 'pld-lower-composite-ops'?): {{.*}}does not refer to a registered pass or pass pipeline
