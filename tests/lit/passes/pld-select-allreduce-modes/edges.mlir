// Edges of the choice, each worked out by hand (the uat-cost10 tester's
// findings 1, 2 and 4).
//
// RUN: split-file %s %t
// RUN: cd %S/Inputs && pld-opt %t/ring-shape.mlir --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=tiles.toml --pld-remark-allreduce-mode --verify-diagnostics -o /dev/null
// RUN: pld-opt %t/huge.mlir --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=%S/Inputs/latency.toml --pld-remark-allreduce-mode -o /dev/null 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: pld-opt %t/half.mlir --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=%S/Inputs/half.toml --pld-remark-allreduce-mode 2>&1 | FileCheck %s --check-prefix=HALF
//
// A 2^63 - 16 KiB call on 2 ranks under latency.toml (alpha = overhead =
// 10 us): two-shot's 3 barriers, 40 us; the mesh's 1 + 2^49 chunks of
// 16 KiB, (2^49 + 2) x 10 us = 5629499534213140 us, to the precision of
// a 64-bit float (its chunk count wrapped to 1 in 64 bits, and the mesh
// won).
// HUGE: remark: mode = "auto" chose "two_shot" for 9223372036854759428 bytes on 2 ranks (cost model 'sim' of {{.*}}latency.toml): two_shot 40.0 us, mesh {{56294995342131[34][0-9]\.[0-9]}} us
//
// 250 ns is recorded as 300 (halves away from zero), and the remark shows
// the record's number (it showed 0.2 us).
// HALF: remark: mode = "auto" chose "mesh" for 4000 bytes on 2 ranks (cost model 'sim' of {{.*}}half.toml): mesh 0.3 us, two_shot 0.3 us;
// HALF: pld.auto_mode = {chosen = "mesh", mesh_ns = 300 : i64, two_shot_ns = 300 : i64}

//--- ring-shape.mlir
// A HOST signal of the ring's shape, [3, 2], is 2 ranks whether or not the
// ring builtin takes the call (it was 3 ranks when it did not). Under
// tiles.toml (1 us per tile moved, 10 us per call), 1024 elements on 2
// ranks, one lane: the mesh's 4 tiles of 256 elements with a remote load
// and a store each, 12 tiles (22 us); two-shot's segments of 512 elements,
// 2 tiles, (3 x 2 - 1) x 2 = 10 tiles (20 us); the ring's 5 x 1 x 2 = 10
// (20 us), after two-shot in the order.
func.func @sum(%d: tensor<1024xf32, #pld.dist>, %s: tensor<3x2xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-remark@+1 {{mode = "auto" chose "two_shot" for 4096 bytes on 2 ranks (cost model 'sim' of tiles.toml): two_shot 20.0 us, ring 20.0 us, mesh 22.0 us}}
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "auto"} : (tensor<1024xf32, #pld.dist>, tensor<3x2xi32, #pld.dist>) -> tensor<1024xf32, #pld.dist>
  return
}
// f16: no ring builtin, the same 2 ranks and the same tiles.
func.func @half(%d: tensor<1024xf16, #pld.dist>, %s: tensor<3x2xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-remark@+1 {{mode = "auto" chose "two_shot" for 2048 bytes on 2 ranks (cost model 'sim' of tiles.toml): two_shot 20.0 us, mesh 22.0 us; not a candidate: "ring": pld.builtin_allreduce_ring supports only element type f32, got f16}}
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "auto"} : (tensor<1024xf16, #pld.dist>, tensor<3x2xi32, #pld.dist>) -> tensor<1024xf16, #pld.dist>
  return
}
// 1023 elements, which 2 ranks do not divide: the same 2 ranks; segments
// of 512 elements.
func.func @odd(%d: tensor<1023xf32, #pld.dist>, %s: tensor<3x2xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-remark@+1 {{mode = "auto" chose "two_shot" for 4092 bytes on 2 ranks (cost model 'sim' of tiles.toml): two_shot 20.0 us, mesh 22.0 us; not a candidate: "ring"}}
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "auto"} : (tensor<1023xf32, #pld.dist>, tensor<3x2xi32, #pld.dist>) -> tensor<1023xf32, #pld.dist>
  return
}
// A signal of another shape is its rows: [4, 2] is 4 ranks (mesh: 4
// tiles x 5 = 20, 30 us; two-shot: segments of 256 elements, 1 tile,
// 11 tiles, 21 us).
func.func @rows(%d: tensor<1024xf32, #pld.dist>, %s: tensor<4x2xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"host">} {
  // expected-remark@+1 {{mode = "auto" chose "two_shot" for 4096 bytes on 4 ranks (cost model 'sim' of tiles.toml): two_shot 21.0 us, mesh 30.0 us}}
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "auto"} : (tensor<1024xf32, #pld.dist>, tensor<4x2xi32, #pld.dist>) -> tensor<1024xf32, #pld.dist>
  return
}

//--- huge.mlir
func.func @k(%d: tensor<1x2305843009213689857xf32, #pld.dist>, %s: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "auto"} : (tensor<1x2305843009213689857xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<1x2305843009213689857xf32, #pld.dist>
  return
}

//--- half.mlir
func.func @k(%d: tensor<1x1000xf32, #pld.dist>, %s: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "auto"} : (tensor<1x1000xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<1x1000xf32, #pld.dist>
  return
}
