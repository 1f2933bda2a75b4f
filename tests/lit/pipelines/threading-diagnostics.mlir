// Diagnostics of a function pass come out in source order either way.
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-lower-composite-ops)' -o /dev/null 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-lower-composite-ops)' --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=ORDER
// ORDER: threading-diagnostics.mlir:[[@LINE+6]]:{{[0-9]+}}: error: {{.*}}mode must be "mesh", "ring", "two_shot" or "auto", got "a"
// ORDER: threading-diagnostics.mlir:[[@LINE+9]]:{{[0-9]+}}: error: {{.*}}mode must be "mesh", "ring", "two_shot" or "auto", got "b"
// ORDER: threading-diagnostics.mlir:[[@LINE+12]]:{{[0-9]+}}: error: {{.*}}mode must be "mesh", "ring", "two_shot" or "auto", got "c"
!d = tensor<1x64xf32, #pld.dist>
!s = tensor<2x1xi32, #pld.dist>
func.func @a(%d: !d, %s: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "a"} : (!d, !s) -> !d
  return
}
func.func @b(%d: !d, %s: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "b"} : (!d, !s) -> !d
  return
}
func.func @c(%d: !d, %s: !s) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "c"} : (!d, !s) -> !d
  return
}
