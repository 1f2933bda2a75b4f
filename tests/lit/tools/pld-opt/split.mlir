// --split-input-file processes chunks independently and joins the output
// with the same separator; a failing chunk prints nothing, the others still
// print, and the exit status is 1.
//
// RUN: not pld-opt --split-input-file %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR --input-file=%t.err
// The output is mlir-opt's byte for byte (on chunks without pld ops): a
// blank line ends each printed chunk (cli24 L7).
// RUN: printf 'func.func @a() {\n  return\n}\n// -----\nfunc.func @b() {\n  "x"() : () -> ()\n}\n// -----\nfunc.func @c() {\n  return\n}\n' > %t.plain.mlir
// RUN: not pld-opt --split-input-file %t.plain.mlir > %t.pld 2>/dev/null
// RUN: not mlir-opt --split-input-file %t.plain.mlir > %t.upstream 2>/dev/null
// RUN: diff %t.upstream %t.pld
// And without splitting, and printed with local scope (no empty line
// after the module there, as mlir-opt writes it):
// RUN: pld-opt %S/local-scope.mlir > %t.one.pld
// RUN: mlir-opt %S/local-scope.mlir > %t.one.upstream
// RUN: diff %t.one.upstream %t.one.pld
// RUN: pld-opt %S/local-scope.mlir --mlir-print-local-scope > %t.local.pld
// RUN: mlir-opt %S/local-scope.mlir --mlir-print-local-scope > %t.local.upstream
// RUN: diff %t.local.upstream %t.local.pld

// CHECK-LABEL: func.func @first
// CHECK-NEXT: return
// CHECK: // -----
// CHECK-LABEL: func.func @third
// CHECK-NOT: @second
func.func @first() {
  return
}

// -----

func.func @second(%t: tensor<4x1xi32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // ERR: split.mlir:[[@LINE+1]]:8: error: 'pld.tensor_barrier' op signal must be a distributed tensor (#pld.dist
  %r = "pld.tensor_barrier"(%t) : (tensor<4x1xi32>) -> tensor<4x1xi32>
  return
}

// -----

func.func @third() {
  return
}
