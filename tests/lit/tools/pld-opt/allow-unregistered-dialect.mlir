// --allow-unregistered-dialect: ops of dialects no one registered parse and
// print (in the generic form); without it they are an error at the op.
//
// RUN: not pld-opt %s 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: allow-unregistered-dialect.mlir:[[@LINE+8]]:{{[0-9]+}}: error: operation being parsed with an unregistered dialect
//
// RUN: pld-opt %s --allow-unregistered-dialect | FileCheck %s
// CHECK: func.func @f
// CHECK-NEXT: "foo.bar"() {note = 1 : i32} : () -> ()
// CHECK-NEXT: return

func.func @f() {
  "foo.bar"() {note = 1 : i32} : () -> ()
  return
}
