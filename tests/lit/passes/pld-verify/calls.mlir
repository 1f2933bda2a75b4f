// D13: a func.call stays within the levels (docs/dialect.md 5.7). A HOST
// orchestrator that called an InCore kernel directly was refused only
// later, for an allocation "not consumed by any CHIP orchestrator
// dispatch", which did not say what was wrong.
//
// RUN: pld-opt %s --split-input-file --verify-diagnostics

!row = tensor<1x64xf32, #pld.dist>
func.func @double(%x: !row) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %b = arith.constant 256 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%b) {name = "x_buf"} : (i64) -> !pld.ptr
  %x = "pld.tensor_window"(%buf) : (!pld.ptr) -> !row
  // expected-error@+1 {{'func.call' op calls InCore kernel @double from a HOST orchestrator; device code runs in a task of a CHIP orchestrator: call the kernel from one, and pld.dispatch that}}
  func.call @double(%x) : (!row) -> ()
  return
}

// -----

!row = tensor<1x64xf32, #pld.dist>
func.func @step(%x: !row) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %b = arith.constant 256 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%b) {name = "x_buf"} : (i64) -> !pld.ptr
  %x = "pld.tensor_window"(%buf) : (!pld.ptr) -> !row
  // expected-error@+1 {{'func.call' op calls CHIP orchestrator @step outside a pld.dispatch; a HOST orchestrator runs it on a device with pld.dispatch}}
  func.call @step(%x) : (!row) -> ()
  return
}

// -----

!row = tensor<1x64xf32, #pld.dist>
func.func @step(%x: !row) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @k(%x: !row) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'func.call' op calls CHIP orchestrator @step from InCore kernel @k; device code calls no orchestrator}}
  func.call @step(%x) : (!row) -> ()
  return
}

// -----

func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  return
}
func.func @step() attributes {pld.kind = #pld.func_kind<"chip">} {
  // expected-error@+1 {{'func.call' op calls HOST orchestrator @main from a CHIP orchestrator; the HOST runs CHIP orchestrators, not the other way round}}
  func.call @main() : () -> ()
  return
}

// -----

// Through functions without pld.kind: what a helper calls, directly or
// through another helper, is called from its caller's level. These passed
// and failed later at an allocation, or on an "operand type mismatch".
!s = tensor<4x1xi32, #pld.dist>
func.func @kern(%s: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}
func.func @helper(%s: !s) {
  func.call @kern(%s) : (!s) -> ()
  return
}
func.func @outer(%s: !s) {
  func.call @helper(%s) : (!s) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %b = arith.constant 32 : i64
  %p = "pld.tensor_alloc_window_buffer"(%b) {name = "sig"} : (i64) -> !pld.ptr
  %s = "pld.tensor_window"(%p) : (!pld.ptr) -> !s
  // expected-error@+1 {{'func.call' op calls InCore kernel @kern through @helper from a HOST orchestrator; device code runs in a task of a CHIP orchestrator}}
  func.call @helper(%s) : (!s) -> ()
  // expected-error@+1 {{'func.call' op calls InCore kernel @kern through @outer and @helper from a HOST orchestrator}}
  func.call @outer(%s) : (!s) -> ()
  return
}

// -----

!s = tensor<4x1xi32, #pld.dist>
func.func @chip2(%s: !s) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @helper(%s: !s) {
  func.call @chip2(%s) : (!s) -> ()
  // A helper calling itself is followed once.
  func.call @helper(%s) : (!s) -> ()
  return
}
func.func @kern(%s: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'func.call' op calls CHIP orchestrator @chip2 through @helper from InCore kernel @kern; device code calls no orchestrator}}
  func.call @helper(%s) : (!s) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %b = arith.constant 32 : i64
  %p = "pld.tensor_alloc_window_buffer"(%b) {name = "sig"} : (i64) -> !pld.ptr
  %s = "pld.tensor_window"(%p) : (!pld.ptr) -> !s
  // expected-error@+1 {{'func.call' op calls CHIP orchestrator @chip2 through @helper outside a pld.dispatch}}
  func.call @helper(%s) : (!s) -> ()
  return
}

// -----

// What stays within the levels passes: a dispatched CHIP orchestrator, a
// kernel called by a CHIP orchestrator or by another kernel, a helper
// without pld.kind.
!row = tensor<1x64xf32, #pld.dist>
func.func private @helper()
func.func @leaf(%x: !row) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}
func.func @k(%x: !row) attributes {pld.kind = #pld.func_kind<"incore">} {
  func.call @leaf(%x) : (!row) -> ()
  func.call @helper() : () -> ()
  return
}
func.func @step(%x: !row) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @k(%x) : (!row) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %b = arith.constant 256 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%b) {name = "x_buf"} : (i64) -> !pld.ptr
  %x = "pld.tensor_window"(%buf) : (!pld.ptr) -> !row
  "pld.dispatch"(%c0) ({
    func.call @step(%x) : (!row) -> ()
    gpu.yield
  }) : (index) -> ()
  func.call @helper() : () -> ()
  return
}
