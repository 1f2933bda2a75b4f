// A model of absurd but valid figures (an overhead of 1e10 s) predicts
// past 2^63 nanoseconds: the record holds the largest time instead of a
// wrapped, negative one (a debug build panicked on the overflow).
//
// RUN: printf '[sim]\nalpha = 0\nbeta = 0\ngamma = 0\noverhead = 1e10\n' > %t.toml
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=%t.toml | FileCheck %s
// CHECK: pld.auto_mode = {chosen = "mesh", mesh_ns = 9223372036854775807 : i64, two_shot_ns = 9223372036854775807 : i64}
//
// Two predictions past 2^63 ns that differ as floats (a byte costs 1e300
// s; the mesh reads twice two-shot's bytes) are recorded and shown as
// equal, and the choice follows what is shown: the order keeps the mesh
// (two-shot was chosen, beside two equal times).
// RUN: printf '[sim]\nalpha = 0\nbeta = 1e300\ngamma = 0\noverhead = 0\n' > %t.beta.toml
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=%t.beta.toml | FileCheck %s

func.func @small(%d: tensor<1x1024xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "auto"} : (tensor<1x1024xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x1024xf32, #pld.dist>
  return
}
