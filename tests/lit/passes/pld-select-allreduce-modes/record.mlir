// The record of mode = "auto" (pld.auto_mode: the choice and every
// candidate's predicted time) is still on the lowered InCore kernel after
// the whole of pld-to-pto: convert-pld-to-pto moves it from the
// expansion's pld.system_nranks to the arith.trunci that replaces it.
// bandwidth.toml's numbers, by hand: 1 MiB on 4 ranks, the mesh reads
// 3 MiB at 1e-9 s/B (3145.7 us) + 10 us, two-shot 1.5 MiB + 10 us.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-to-pto)' --pld-cost-model=%S/Inputs/bandwidth.toml | FileCheck %s
// CHECK-LABEL: func.func @big
// CHECK: arith.trunci %{{.*}} {pld.auto_mode = {chosen = "two_shot", mesh_ns = 3155700 : i64, two_shot_ns = 1582900 : i64}} : i64 to i32
// CHECK-NOT: pld.tensor_allreduce
// CHECK-NOT: pld.system_nranks
// CHECK: return

func.func @big(%d: tensor<1x262144xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "auto"} : (tensor<1x262144xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x262144xf32, #pld.dist>
  return
}
