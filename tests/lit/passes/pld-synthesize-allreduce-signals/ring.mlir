// A HOST allreduce written without a signal for which mode = "auto" chose
// the ring, as pld-select-allreduce-modes leaves it (mode = "ring" and the
// record, which holds the rank count N it chose for; pld-verify accepts
// that without a signal), gets the ring's signal: a static
// [2(N-1)+1, N] window of (2N-1) * N * 4 bytes (a window's size must be
// linear in world_size), not the mesh's [world_size, 1]. And mode = "auto"
// with a ring-shaped HOST signal ([2(NR-1)+1, NR], here [7, 4]) weighs all
// three schedules on NR = 4 ranks: the mesh's and two-shot's [NR, S]
// signals take it too (7 rows >= 4 ranks, 4 lanes >= core_num 1), and at
// 256 bytes the model prefers the mesh. The numbers on simulated
// devices are checked against a golden computed by a Python
// standard-library script, not by pld.
//
// RUN: split-file %s %t
// RUN: pld-opt %t/host.mlir --pass-pipeline='builtin.module(pld-synthesize-allreduce-signals)' --mlir-use-nameloc-as-prefix | FileCheck %s
// CHECK-LABEL: func.func @main
// CHECK: {name = "ring_buf"}
// CHECK: %[[BYTES:.*]] = arith.constant 112 : i64
// CHECK-NEXT: %__allreduce_signal_buf_0 = "pld.tensor_alloc_window_buffer"(%[[BYTES]]) {name = "__allreduce_signal_buf_0"}
// CHECK-NEXT: %__allreduce_signal_0 = "pld.tensor_window"(%__allreduce_signal_buf_0) : (!pld.ptr) -> tensor<7x4xi32, #pld.dist>
// CHECK-NEXT: "pld.tensor_allreduce"(%{{.*}}, %__allreduce_signal_0) {mode = "ring", op = #pld.reduce_op<"sum">, pld.auto_mode = {chosen = "ring", ranks = 4 : i64}}
//
// The whole HOST rail: the ring builtin on the synthesized signal, and the
// auto call resolved to the mesh with its record on the builtin.
// RUN: pld-opt %t/host.mlir --pass-pipeline='builtin.module(pld-host-pipeline)' | FileCheck %s --check-prefix=RAIL
// RAIL: "pld.builtin_allreduce_ring"(%{{.*}}, %{{.*}}, %{{.*}}) {arg_directions = {{.*}}, dtype = f32, op = #pld.reduce_op<"sum">, pld.auto_mode = {chosen = "ring", ranks = 4 : i64}} : (tensor<1x1000xf32, #pld.dist>, tensor<7x4xi32, #pld.dist>, index) -> ()
// RAIL: "pld.builtin_allreduce"(%{{.*}}, %{{.*}}, %{{.*}}) {arg_directions = {{.*}}, core_num = 1 : i64, dtype = f32, op = #pld.reduce_op<"sum">, pld.auto_mode = {chosen = "mesh", mesh_ns = {{[0-9]+}} : i64, ring_ns = {{[0-9]+}} : i64, two_shot_ns = {{[0-9]+}} : i64}} : (tensor<1x64xf32, #pld.dist>, tensor<7x4xi32, #pld.dist>, index) -> ()
// RAIL-NOT: pld.tensor_allreduce
//
// RUN: mkdir -p %t/a %t/b
// RUN: python3 %S/../pld-lower-composite-ops/Inputs/allreduce_golden.py write %t/a f4 1,1000 4 sum
// RUN: python3 %S/../pld-lower-composite-ops/Inputs/allreduce_golden.py write %t/b f4 1,64 4 sum
// RUN: pld-run %t/host.mlir --ranks 4 --input 'data_buf=%t/a/x.rank{rank}.npy' --input 'other_buf=%t/b/x.rank{rank}.npy' --output-dir %t/out | FileCheck %s --check-prefix=SIM
// RUN: python3 %S/../pld-lower-composite-ops/Inputs/allreduce_golden.py check %t/out data_buf f4 1,1000 4 sum | FileCheck %s --check-prefix=RING
// RUN: python3 %S/../pld-lower-composite-ops/Inputs/allreduce_golden.py check %t/out other_buf f4 1,64 4 sum | FileCheck %s --check-prefix=AUTO
// SIM: @main on 4 devices: 2 collective calls
// RING: ok: 4 ranks x 1000 elements
// AUTO: ok: 4 ranks x 64 elements
// Chosen for 8 ranks: [15, 8].
// RUN: pld-opt %t/ring8.mlir --pass-pipeline='builtin.module(pld-synthesize-allreduce-signals)' | FileCheck %s --check-prefix=SHAPE8
// SHAPE8: tensor<15x8xi32, #pld.dist>
// RUN: mkdir -p %t/c
// RUN: python3 %S/../pld-lower-composite-ops/Inputs/allreduce_golden.py write %t/c f4 1,800 8 sum
// RUN: pld-run %t/ring8.mlir --ranks 8 --input 'data_buf=%t/c/x.rank{rank}.npy' --output-dir %t/out8 | FileCheck %s --check-prefix=SIM8
// RUN: python3 %S/../pld-lower-composite-ops/Inputs/allreduce_golden.py check %t/out8 data_buf f4 1,800 8 sum | FileCheck %s --check-prefix=EIGHT
// SIM8: @main on 8 devices: 1 collective call
// EIGHT: ok: 8 ranks x 800 elements
//
// Written by hand, mode = "ring" without a signal stays an error (spec
// C2), and so does a record without the rank count.
// RUN: not pld-opt %t/plain.mlir 2>&1 | FileCheck %s --check-prefix=PLAIN
// PLAIN: error: 'pld.tensor_allreduce' op mode = "ring" requires an explicit signal
// RUN: not pld-opt %t/norank.mlir --pass-pipeline='builtin.module(pld-synthesize-allreduce-signals)' 2>&1 | FileCheck %s --check-prefix=NORANK
// NORANK: error: 'pld.tensor_allreduce' op mode = "ring" without a signal needs the rank count `ranks` (2 to 64) in its pld.auto_mode record, as pld-select-allreduce-modes world-size=N writes it

//--- host.mlir
!data = tensor<1x1000xf32, #pld.dist>
!other = tensor<1x64xf32, #pld.dist>
!ring = tensor<7x4xi32, #pld.dist>
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 4000 : i64
  %obytes = arith.constant 256 : i64
  %sbytes = arith.constant 112 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  %obuf = "pld.tensor_alloc_window_buffer"(%obytes) {name = "other_buf"} : (i64) -> !pld.ptr
  %other = "pld.tensor_window"(%obuf) : (!pld.ptr) -> !other
  %sbuf = "pld.tensor_alloc_window_buffer"(%sbytes) {name = "ring_buf"} : (i64) -> !pld.ptr
  %ring = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> !ring
  %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">, mode = "ring", pld.auto_mode = {chosen = "ring", ranks = 4 : i64}} : (!data) -> !data
  %o = "pld.tensor_allreduce"(%other, %ring) {op = #pld.reduce_op<"sum">, mode = "auto"} : (!other, !ring) -> !other
  return
}

//--- ring8.mlir
!data = tensor<1x800xf32, #pld.dist>
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 3200 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">, mode = "ring", pld.auto_mode = {chosen = "ring", ranks = 8 : i64}} : (!data) -> !data
  return
}

//--- plain.mlir
!data = tensor<1x800xf32, #pld.dist>
func.func @main(%data: !data) attributes {pld.kind = #pld.func_kind<"host">} {
  %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">, mode = "ring"} : (!data) -> !data
  return
}

//--- norank.mlir
!data = tensor<1x800xf32, #pld.dist>
func.func @main(%data: !data) attributes {pld.kind = #pld.func_kind<"host">} {
  %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">, mode = "ring", pld.auto_mode = {chosen = "ring"}} : (!data) -> !data
  return
}
