// pld-select-allreduce-modes: mode = "auto" becomes the schedule the cost
// model predicts fastest, with the record of every candidate's predicted
// time, and a remark under --pld-remark-allreduce-mode. The model of
// Inputs/latency.toml makes barriers expensive and bytes cheap, that of
// Inputs/bandwidth.toml the other way round; the expected choices follow
// from the counts of docs/algorithms.md, worked out by hand below.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=%S/Inputs/bandwidth.toml | FileCheck %s --check-prefix=BW
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes{cost-model=%S/Inputs/latency.toml})' | FileCheck %s --check-prefix=LAT
// RUN: cd %S/Inputs && pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=bandwidth.toml --pld-remark-allreduce-mode --verify-diagnostics -o /dev/null
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-incore-pipeline)' --pld-cost-model=%S/Inputs/bandwidth.toml | FileCheck %s --check-prefix=INCORE
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=%S/Inputs/bandwidth.toml --pld-cost-target=a2a3 | FileCheck %s --check-prefix=A2A3
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=%S/Inputs/tiles.toml | FileCheck %s --check-prefix=TILES
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=%S/Inputs/local.toml | FileCheck %s --check-prefix=LOCAL

// bandwidth.toml [sim]: beta = 1e-9 s/B, overhead 1e-5 s, the rest 0.
// 1 MiB on 4 ranks: mesh reads 3 MiB = 3145.7 us + 10 us = 3155.7 us;
// (the record keeps 100 ns)
// two-shot reads 2 * 3/4 MiB = 1572.9 us + 10 us = 1582.9 us.
// BW-LABEL: func.func @big
// BW: mode = "two_shot"{{.*}}pld.auto_mode = {chosen = "two_shot", mesh_ns = 3155700 : i64, two_shot_ns = 1582900 : i64}
// latency.toml [sim]: alpha = 1e-5 s, overhead 1e-5 s: the mesh's 1 + 64
// chunks = 65 barriers (660 us) lose to two-shot's 3 (40 us).
// LAT-LABEL: func.func @big
// LAT: pld.auto_mode = {chosen = "two_shot", mesh_ns = 660000 : i64, two_shot_ns = 40000 : i64}
// The 4 KiB call: 2 barriers (30 us) against 3 (40 us) under latency.toml;
// under bandwidth.toml 3 * 4096 B (22.3 us) against 1.5 * 4096 B (16.1 us).
// LAT-LABEL: func.func @small
// LAT: mode = "mesh"{{.*}}pld.auto_mode = {chosen = "mesh", mesh_ns = 30000 : i64, two_shot_ns = 40000 : i64}
// BW-LABEL: func.func @small
// BW: chosen = "two_shot", mesh_ns = 22300 : i64, two_shot_ns = 16100 : i64
// A ring-shaped signal leaves the ring only.
// BW-LABEL: func.func @ring
// BW: mode = "ring"{{.*}}pld.auto_mode = {chosen = "ring", ring_ns =
// A length known only at run time keeps the default, the mesh.
// BW-LABEL: func.func @dynamic
// BW: mode = "mesh"{{.*}}pld.auto_mode = {chosen = "mesh"}
// A HOST call without a signal: the rank count is known at run time only.
// BW-LABEL: func.func @host
// BW: mode = "mesh"{{.*}}pld.auto_mode = {chosen = "mesh"}
// A mode written out is left alone.
// BW-LABEL: func.func @fixed
// BW: "pld.tensor_allreduce"(%arg0, %arg1) {mode = "ring", op = #pld.reduce_op<"sum">}
//
// The record stays with the expansion (its pld.system_nranks).
// INCORE-LABEL: func.func @big
// INCORE: "pld.system_nranks"({{.*}}) {pld.auto_mode = {chosen = "two_shot"
// INCORE-NOT: pld.tensor_allreduce
// INCORE-LABEL: func.func @small
//
// --pld-cost-target picks the file's other table: there alpha = 1e-3 s.
// A2A3-LABEL: func.func @big
// A2A3: chosen = "two_shot"
// A2A3-LABEL: func.func @small
// A2A3: chosen = "mesh"
//
// tiles.toml [sim]: delta = 1e-6 s per tile moved, overhead 1e-5 s, the
// rest 0. 1 MiB on 4 ranks: the mesh's 64 chunks of 16 KiB move 4 + 1
// tiles each (320 tiles, 330 us); two-shot's 256 KiB segments are 16
// chunks, each 3 x 4 - 1 = 11 tiles (176 tiles, 186 us).
// TILES-LABEL: func.func @big
// TILES: pld.auto_mode = {chosen = "two_shot", mesh_ns = 330000 : i64, two_shot_ns = 186000 : i64}
// 4 KiB: one chunk, 5 tiles (15 us) against 11 (21 us).
// TILES-LABEL: func.func @small
// TILES: pld.auto_mode = {chosen = "mesh", mesh_ns = 15000 : i64, two_shot_ns = 21000 : i64}
// The ring: 3 reduce steps of 3 tiles and 3 gather steps of 2 on its one
// subchunk, 15 tiles (25 us).
// TILES-LABEL: func.func @ring
// TILES: pld.auto_mode = {chosen = "ring", ring_ns = 25000 : i64}
// local.toml [sim]: beta_local = 1e-9 s per byte loaded from or stored to
// the rank's own window, overhead 1e-5 s, the rest 0. 1 MiB on 4 ranks:
// the mesh loads and stores its own 1 MiB (2 MiB: 2097.2 us + 10 us);
// two-shot loads and stores its own 256 KiB segment and stores the 3
// others (5 x 256 KiB = 1310.7 us + 10 us).
// LOCAL-LABEL: func.func @big
// LOCAL: pld.auto_mode = {chosen = "two_shot", mesh_ns = 2107200 : i64, two_shot_ns = 1320700 : i64}
// 4 KiB: the mesh 8192 B (18.2 us), two-shot 5 x 1024 B (15.1 us).
// LOCAL-LABEL: func.func @small
// LOCAL: pld.auto_mode = {chosen = "two_shot", mesh_ns = 18200 : i64, two_shot_ns = 15100 : i64}
// The ring: 3 reduce steps load and store a 1 KiB segment, 3 gather steps
// store one: 9 KiB (9.2 us + 10 us).
// LOCAL-LABEL: func.func @ring
// LOCAL: pld.auto_mode = {chosen = "ring", ring_ns = 19200 : i64}

func.func @big(%d: tensor<1x262144xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-remark@+1 {{mode = "auto" chose "two_shot" for 1048576 bytes on 4 ranks (cost model 'sim' of bandwidth.toml): two_shot 1582.9 us, mesh 3155.7 us}}
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "auto"} : (tensor<1x262144xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x262144xf32, #pld.dist>
  return
}

func.func @small(%d: tensor<1x1024xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-remark@+1 {{chose "two_shot" for 4096 bytes on 4 ranks}}
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"max">, mode = "auto"} : (tensor<1x1024xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x1024xf32, #pld.dist>
  return
}

func.func @ring(%d: tensor<1x1024xf32, #pld.dist>, %s: tensor<6x4xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-remark@+1 {{chose "ring"}}
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "auto"} : (tensor<1x1024xf32, #pld.dist>, tensor<6x4xi32, #pld.dist>) -> tensor<1x1024xf32, #pld.dist>
  return
}

func.func @dynamic(%d: tensor<1x?xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-remark@+1 {{mode = "auto" kept "mesh" (the default) for a size or rank count known only at run time}}
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "auto"} : (tensor<1x?xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x?xf32, #pld.dist>
  return
}

// A signal of no rows fits no rank count: no prediction, and the remark
// does not call that a run-time rank count.
func.func @norows(%d: tensor<1x64xf32, #pld.dist>, %s: tensor<0x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-remark@+1 {{mode = "auto" kept "mesh" (the default) without a prediction (the signal has no rows, which no rank count fits)}}
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "auto"} : (tensor<1x64xf32, #pld.dist>, tensor<0x1xi32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  return
}

func.func @host() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 4096 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> tensor<1x1024xf32, #pld.dist>
  // expected-remark@+1 {{kept "mesh"}}
  %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">, mode = "auto"} : (tensor<1x1024xf32, #pld.dist>) -> tensor<1x1024xf32, #pld.dist>
  return
}

func.func @fixed(%d: tensor<1x1024xf32, #pld.dist>, %s: tensor<6x4xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "ring"} : (tensor<1x1024xf32, #pld.dist>, tensor<6x4xi32, #pld.dist>) -> tensor<1x1024xf32, #pld.dist>
  return
}
