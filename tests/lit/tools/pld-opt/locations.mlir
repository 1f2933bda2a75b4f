// Diagnostics at name, call-site and fused locations are shown where
// MLIR's source-manager handler shows them: a name with no file in it is
// said before the message (it was dropped, leaving the bare file name),
// a call site at its callee's position with a note at each caller (it
// lost the callers, and a callee with no file lost the position too)
// (cli24 M2).
//
// RUN: split-file %s %t
// RUN: cd %t && not pld-opt name.mlir 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: {{^}}name.mlir: error: loc("bar"): 'pld.tensor_barrier' op signal must be a distributed tensor
// RUN: cd %t && not pld-run name.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=NAME-TOOL --implicit-check-not="verify failed"
// NAME-TOOL: {{^}}name.mlir: error: loc("bar"): 'pld.tensor_barrier' op signal must be a distributed tensor
// pld-run showed only the note of an error at a call site into another
// file, and said "pld-run: error: k.mlir: other.mlir:3:4: error: ..." of
// an op of another file (recheck24 M1, L1):
// RUN: cd %t && not pld-run calls-run.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=RUNCALLS
// RUNCALLS: {{^}}callee.mlir:1:2: error: 'memref.alloca' op in kernel @k has no PTO form
// RUNCALLS-NEXT: {{^}}caller.mlir:7:9: note: called from
// A run-time error at a name location said "rank 0: a arith.divsi:
// arith.divsi: divides by zero" (recheck24 M3):
// RUN: cd %t && not pld-run divide.mlir --ranks 1 2>&1 | FileCheck %s --check-prefix=DIVIDE
// DIVIDE: pld-run: error: rank 0: loc("bar"): arith.divsi: divides by zero
// RUN: cd %t && not pld-opt named-file.mlir 2>&1 | FileCheck %s --check-prefix=NAMED-FILE
// NAMED-FILE: {{^}}named-file.mlir:2:8: error: 'pld.tensor_barrier' op signal must be a distributed tensor
// NAMED-FILE-NEXT: {{^}}  %a = "pld.tensor_barrier"
// RUN: cd %t && not pld-opt calls.mlir 2>&1 | FileCheck %s --check-prefix=CALLS
// CALLS: {{^}}inner.mlir:3:5: error: 'pld.tensor_barrier' op signal must be a distributed tensor
// CALLS-NEXT: {{^}}mid.mlir:8:2: note: called from
// CALLS-NEXT: {{^}}top.mlir:12:7: note: called from
// RUN: cd %t && not pld-opt unnamed-callee.mlir 2>&1 | FileCheck %s --check-prefix=UNNAMED
// As mlir-opt: the caller is both where the error is and a note.
// UNNAMED: {{^}}unnamed-callee.mlir:1:1: error: 'pld.tensor_barrier' op signal must be a distributed tensor
// UNNAMED: {{^}}unnamed-callee.mlir:1:1: note: called from
// An error of the HOST orchestrator at a name or call-site location:
// "pld-run: error: host.mlir: unknown location: ..." and "... host.mlir:
// callee.mlir:1:2: ..." before (recheck24b M2).
// RUN: cd %t && not pld-run host.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=HOST
// HOST: {{^}}host.mlir: error: loc("bar"): 'arith.divsi' divides by zero
// RUN: cd %t && sed 's/loc("bar")/loc(callsite("callee.mlir":1:2 at "host.mlir":4:8))/' host.mlir > host-calls.mlir
// RUN: cd %t && not pld-run host-calls.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=HOST-CALLS
// HOST-CALLS: {{^}}callee.mlir:1:2: error: 'arith.divsi' divides by zero
// The callers' notes are shown only: --verify-diagnostics does not see
// them, as mlir-opt's does not (it reported `unexpected note: called
// from`, recheck24b M4).
// RUN: cd %t && pld-opt verify-calls.mlir --verify-diagnostics -o /dev/null
// A name around a call site keeps its callers (as mlir-opt does):
// RUN: cd %t && not pld-opt named-calls.mlir 2>&1 | FileCheck %s --check-prefix=NAMED-CALLS
// NAMED-CALLS: {{^}}x.mlir:5:5: error: 'pld.tensor_barrier' op signal
// NAMED-CALLS-NEXT: {{^}}y.mlir:6:6: note: called from
// RUN: cd %t && not pld-opt fused.mlir 2>&1 | FileCheck %s --check-prefix=FUSED
// FUSED: {{^}}f.mlir:2:3: error: 'pld.tensor_barrier' op signal must be a distributed tensor
// RUN: cd %t && not pld-opt unknown.mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: {{^}}unknown.mlir: error: 'pld.tensor_barrier' op signal must be a distributed tensor

//--- name.mlir
func.func @k(%t: tensor<4x1xi32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %a = "pld.tensor_barrier"(%t) : (tensor<4x1xi32>) -> tensor<4x1xi32> loc("bar")
  return
}
//--- named-file.mlir
func.func @k(%t: tensor<4x1xi32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %a = "pld.tensor_barrier"(%t) : (tensor<4x1xi32>) -> tensor<4x1xi32> loc("bar"("named-file.mlir":2:8))
  return
}
//--- calls.mlir
func.func @k(%t: tensor<4x1xi32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %a = "pld.tensor_barrier"(%t) : (tensor<4x1xi32>) -> tensor<4x1xi32> loc(callsite("inner.mlir":3:5 at callsite("mid.mlir":8:2 at "top.mlir":12:7)))
  return
}
//--- unnamed-callee.mlir
func.func @k(%t: tensor<4x1xi32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %a = "pld.tensor_barrier"(%t) : (tensor<4x1xi32>) -> tensor<4x1xi32> loc(callsite("foo" at "unnamed-callee.mlir":1:1))
  return
}
//--- named-calls.mlir
func.func @k(%t: tensor<4x1xi32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %a = "pld.tensor_barrier"(%t) : (tensor<4x1xi32>) -> tensor<4x1xi32> loc("bar"(callsite("x.mlir":5:5 at "y.mlir":6:6)))
  return
}
//--- fused.mlir
func.func @k(%t: tensor<4x1xi32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %a = "pld.tensor_barrier"(%t) : (tensor<4x1xi32>) -> tensor<4x1xi32> loc(fused["f.mlir":2:3, "g.mlir":4:5])
  return
}
//--- unknown.mlir
func.func @k(%t: tensor<4x1xi32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %a = "pld.tensor_barrier"(%t) : (tensor<4x1xi32>) -> tensor<4x1xi32> loc(unknown)
  return
}
//--- calls-run.mlir
func.func @k(%signal: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %m = memref.alloca() : memref<4xf32> loc(callsite("callee.mlir":1:2 at "caller.mlir":7:9))
  return
}
//--- divide.mlir
func.func @k(%x: tensor<1x4xi32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %v = "pld.tensor_read"(%x, %c0, %c0) : (tensor<1x4xi32>, index, index) -> i32
  %z = arith.subi %v, %v : i32
  %d = arith.divsi %v, %z : i32 loc("bar")
  return
}
//--- verify-calls.mlir
func.func @k(%t: tensor<4x1xi32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{signal must be a distributed tensor}}
  %a = "pld.tensor_barrier"(%t) : (tensor<4x1xi32>) -> tensor<4x1xi32> loc(callsite("verify-calls.mlir":3:8 at "verify-calls.mlir":1:1))
  return
}
//--- host.mlir
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : i64
  %c256 = arith.constant 256 : i64
  %q = arith.divsi %c256, %c0 : i64 loc("bar")
  %xbuf = "pld.tensor_alloc_window_buffer"(%c256) {name = "x"} : (i64) -> !pld.ptr
  %x = "pld.tensor_window"(%xbuf) : (!pld.ptr) -> tensor<1x64xf32, #pld.dist>
  %s = "pld.tensor_allreduce"(%x) {op = #pld.reduce_op<"sum">} : (tensor<1x64xf32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  return
}
