// The integer ops of a kernel's own scalar code whose result MLIR leaves
// undefined are guarded: a divisor of 0, a signed quotient of the minimum
// by -1, a shift by the width or more call pld_sim_undefined (0, 1, 2) at
// the op's site and go on with a divisor of 1 or a shift of 0. A signed
// remainder checks the minimum by -1 too (it is 0, as by 1), but only a
// divisor of 0 is an error. A helper the kernel calls is guarded as well;
// one on vectors is refused (invalid.mlir).
// The run-time side: tests/lit/tools/pld-run/undefined-scalar.mlir.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(convert-pto-to-sim)' | FileCheck %s

// CHECK-LABEL: func.func @k(
// CHECK-SAME: %[[A:[a-z0-9]+]]: i32, %[[B:[a-z0-9]+]]: i32, %[[N:[a-z0-9]+]]: index
func.func @k(%a: i32, %b: i32, %n: index, %p: !pto.ptr<i32>) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  // CHECK: %[[Z0:.+]] = arith.constant 0 : i32
  // CHECK: %[[ZERO:.+]] = arith.cmpi eq, %[[B]], %[[Z0]] : i32
  // CHECK: %[[MIN:.+]] = arith.constant -2147483648 : i32
  // CHECK: %[[ISMIN:.+]] = arith.cmpi eq, %[[A]], %[[MIN]] : i32
  // CHECK: %[[M1:.+]] = arith.constant -1 : i32
  // CHECK: %[[ISM1:.+]] = arith.cmpi eq, %[[B]], %[[M1]] : i32
  // CHECK: %[[OVF:.+]] = arith.andi %[[ISMIN]], %[[ISM1]] : i1
  // CHECK: %[[BAD:.+]] = arith.ori %[[ZERO]], %[[OVF]] : i1
  // CHECK: scf.if %[[BAD]] {
  // CHECK: %[[WHAT:.+]] = arith.select %[[ZERO]], %{{.+}}, %{{.+}} : i32
  // CHECK: func.call @pld_sim_undefined(%{{.+}}, %[[WHAT]]) : (i64, i32) -> ()
  // CHECK: }
  // CHECK: %[[ONE:.+]] = arith.constant 1 : i32
  // CHECK: %[[DIV:.+]] = arith.select %[[BAD]], %[[ONE]], %[[B]] : i32
  // CHECK: %[[Q:.+]] = arith.divsi %[[A]], %[[DIV]] : i32
  %q = arith.divsi %a, %b : i32
  // An unsigned remainder: a divisor of 0 only, said as 0.
  // CHECK: %[[ZERO2:.+]] = arith.cmpi eq, %[[B]], %{{.+}} : i32
  // CHECK-NEXT: scf.if %[[ZERO2]] {
  // CHECK: %[[W0:.+]] = arith.constant 0 : i32
  // CHECK-NEXT: func.call @pld_sim_undefined(%{{.+}}, %[[W0]])
  // CHECK: %[[DIV2:.+]] = arith.select %[[ZERO2]], %{{.+}}, %[[B]] : i32
  // CHECK-NEXT: %[[R:.+]] = arith.remui %[[Q]], %[[DIV2]] : i32
  %r = arith.remui %q, %b : i32
  // A shift: the amount as unsigned against the width, said as 2.
  // CHECK: %[[W32:.+]] = arith.constant 32 : i32
  // CHECK-NEXT: %[[FAR:.+]] = arith.cmpi uge, %[[B]], %[[W32]] : i32
  // CHECK-NEXT: scf.if %[[FAR]] {
  // CHECK: %[[W2:.+]] = arith.constant 2 : i32
  // CHECK-NEXT: func.call @pld_sim_undefined(%{{.+}}, %[[W2]])
  // CHECK: %[[NOSHIFT:.+]] = arith.constant 0 : i32
  // CHECK-NEXT: %[[AMOUNT:.+]] = arith.select %[[FAR]], %[[NOSHIFT]], %[[B]] : i32
  // CHECK-NEXT: arith.shli %[[R]], %[[AMOUNT]] : i32
  %s = arith.shli %r, %b : i32
  // A signed remainder: the minimum by -1 divides by 1, but only 0 is
  // said; an index op is computed as its arith counterpart on index.
  // CHECK: %[[ZERO3:.+]] = arith.cmpi eq, %[[N]], %{{.+}} : index
  // CHECK: arith.constant -9223372036854775808 : index
  // CHECK: %[[OVF3:.+]] = arith.andi
  // CHECK-NEXT: %[[BAD3:.+]] = arith.ori %[[ZERO3]], %[[OVF3]] : i1
  // CHECK-NEXT: scf.if %[[ZERO3]] {
  // CHECK: func.call @pld_sim_undefined
  // CHECK: %[[DIV3:.+]] = arith.select %[[BAD3]], %{{.+}}, %[[N]] : index
  // CHECK-NEXT: arith.remsi %[[N]], %[[DIV3]] : index
  %c = index.rems %n, %n
  "pto.store_scalar"(%s, %p, %c) : (i32, !pto.ptr<i32>, index) -> ()
  %h = func.call @half(%n) : (index) -> index
  return
}

// CHECK-LABEL: func.func @half(
// CHECK: scf.if
// CHECK: func.call @pld_sim_undefined
// CHECK: arith.divui
func.func @half(%x: index) -> index {
  %q = arith.divui %x, %x : index
  return %q : index
}

// Overflow flags (poison on overflow) are dropped: an overflowing offset
// wraps and its bounds check stays (with nsw, LLVM dropped the check of a
// row computed so).
// CHECK-LABEL: func.func @flags(
// CHECK: arith.muli %{{[a-z0-9]+}}, %{{[a-z0-9]+}} : i32
// CHECK-NOT: overflow<
// CHECK: return
func.func @flags(%a: i32, %b: i32, %p: !pto.ptr<i32>) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  %m = arith.muli %a, %b overflow<nsw> : i32
  %s = arith.addi %m, %a overflow<nsw, nuw> : i32
  %c0 = arith.constant 0 : index
  "pto.store_scalar"(%s, %p, %c0) : (i32, !pto.ptr<i32>, index) -> ()
  return
}
