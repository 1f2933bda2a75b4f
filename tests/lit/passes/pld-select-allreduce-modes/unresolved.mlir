// A rail that meets mode = "auto" says which pass resolves it.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-lower-composite-ops)' --verify-diagnostics -o /dev/null

func.func @k(%d: tensor<1x64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{mode = "auto" is resolved by pld-select-allreduce-modes, which runs first in pld-to-pto, pld-host-pipeline and pld-incore-pipeline}}
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "auto"} : (tensor<1x64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  return
}
