// --pld-world-size=N (pass option world-size=N): a HOST allreduce written
// without a signal is chosen for N ranks, with the ring among the
// candidates wherever the HOST ring builtin runs (f32, sum, one lane, an
// element count N divides); the record keeps N (`ranks`), from which
// pld-synthesize-allreduce-signals sizes a ring's signal. Worked out by
// hand with Inputs/bandwidth.toml (beta = 1e-9 s/B, overhead 10 us, no
// barrier cost), 4096 bytes on 4 ranks: the mesh reads 3 x 4096 B
// (12.3 us + 10 us), two-shot and the ring 2 x 3/4 x 4096 B (6.1 us + 10
// us) each; of equals the first in the order mesh, two_shot, ring wins.
// The ring's 2(P-1)+1 = 7 barriers against two-shot's 3 make it lose
// whenever barriers cost anything: in this model the HOST ring is a
// candidate, never ahead of two-shot.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=%S/Inputs/bandwidth.toml --pld-world-size=4 | FileCheck %s
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes{cost-model=%S/Inputs/bandwidth.toml world-size=4})' | FileCheck %s
// CHECK-LABEL: func.func @sum
// CHECK: pld.auto_mode = {chosen = "two_shot", mesh_ns = 22300 : i64, ranks = 4 : i64, ring_ns = 16100 : i64, two_shot_ns = 16100 : i64}
// A max: no ring builtin.
// CHECK-LABEL: func.func @max
// CHECK: pld.auto_mode = {chosen = "two_shot", mesh_ns = 22300 : i64, ranks = 4 : i64, two_shot_ns = 16100 : i64}
// 1022 elements: 4 does not divide them.
// CHECK-LABEL: func.func @odd
// CHECK: pld.auto_mode = {chosen = "two_shot", mesh_ns = {{[^,]*}}, ranks = 4 : i64, two_shot_ns = {{[^,]*}}}
// A signal says the rank count itself, 2 here: world-size is not used, and
// the record has no `ranks`. On 2 ranks both read 4096 B (4.1 us + 10 us):
// the mesh comes first.
// CHECK-LABEL: func.func @signal
// CHECK: pld.auto_mode = {chosen = "mesh", mesh_ns = 14100 : i64, two_shot_ns = 14100 : i64}
//
// The builtins' tiles (Inputs/tiles.toml: 1 us per tile moved, 10 us per
// call): the mesh's one lane moves its 4 tiles of 256 elements, each with
// 3 remote loads and a store, 20 tiles (30 us); two-shot's segments are
// one tile, 3 x 4 - 1 = 11 tiles (21 us); the ring's one block 3 reduce
// steps of 3 and 3 gather steps of 2 on its one tile, 15 (25 us).
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=%S/Inputs/tiles.toml --pld-world-size=4 | FileCheck %s --check-prefix=TILES
// TILES-LABEL: func.func @sum
// TILES: pld.auto_mode = {chosen = "two_shot", mesh_ns = 30000 : i64, ranks = 4 : i64, ring_ns = 25000 : i64, two_shot_ns = 21000 : i64}
// The bytes moved in the own window (Inputs/local.toml: 1 ns per byte,
// 10 us per call), as on the InCore rail: the mesh 2 x 4096 B (18.2 us),
// two-shot 5 x 1024 B (15.1 us), the ring 9 x 1024 B (19.2 us).
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=%S/Inputs/local.toml --pld-world-size=4 | FileCheck %s --check-prefix=LOCAL
// LOCAL-LABEL: func.func @sum
// LOCAL: pld.auto_mode = {chosen = "two_shot", mesh_ns = 18200 : i64, ranks = 4 : i64, ring_ns = 19200 : i64, two_shot_ns = 15100 : i64}
//
// Without it, a HOST call without a signal keeps the mesh.
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=%S/Inputs/bandwidth.toml | FileCheck %s --check-prefix=NONE
// NONE-LABEL: func.func @sum
// NONE: pld.auto_mode = {chosen = "mesh"}
//
// The HOST rail then synthesizes the chosen schedule's signal.
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-host-pipeline)' --pld-cost-model=%S/Inputs/bandwidth.toml --pld-world-size=4 | FileCheck %s --check-prefix=RAIL
// RAIL-LABEL: func.func @sum
// RAIL: "pld.builtin_allreduce_two_shot"(%{{.*}}, %{{.*}}, %{{.*}}) {{.*}}ranks = 4 : i64{{.*}} : (tensor<1x1024xf32, #pld.dist>, tensor<?x1xi32, #pld.dist>, index) -> ()
//
// The remark says why the ring is not a candidate, in words that hold:
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=%S/Inputs/bandwidth.toml --pld-world-size=1 --pld-remark-allreduce-mode -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE
// ONE: remark: mode = "auto" chose "mesh" for 4096 bytes on 1 rank (cost model 'sim' of {{.*}}bandwidth.toml): {{.*}}; not a candidate: "ring": it needs 2 ranks or more, got world-size=1
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=%S/Inputs/bandwidth.toml --pld-world-size=4 --pld-remark-allreduce-mode -o /dev/null 2>&1 | FileCheck %s --check-prefix=ODD
// ODD: remark: mode = "auto" chose "two_shot" for 4088 bytes on 4 ranks {{.*}}; not a candidate: "ring": it needs an element count (1022) that the rank count (4) divides
//
// A bad --pld-world-size is the command line's error, said as the argument
// parser says a bad value (it was the pass's: cli24 L10); the pass option
// world-size keeps the pass's own:
// RUN: not pld-opt %s --pld-world-size=0 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: invalid value '0' for '--pld-world-size <N>': 0 is not in 1..=64
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes{world-size=65})' 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: pld-select-allreduce-modes: world-size must be 1 to 64, got 65
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes{world-size=many})' 2>&1 | FileCheck %s --check-prefix=WORDS
// WORDS: world-size is a number of ranks, not 'many'
// Digits past 64 bits are a number out of range, not "not a number":
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes{world-size=99999999999999999999})' 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: world-size must be 1 to 64, got 99999999999999999999

func.func @sum() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 4096 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> tensor<1x1024xf32, #pld.dist>
  %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">, mode = "auto"} : (tensor<1x1024xf32, #pld.dist>) -> tensor<1x1024xf32, #pld.dist>
  return
}

func.func @max() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 4096 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "max_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> tensor<1x1024xf32, #pld.dist>
  %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"max">, mode = "auto"} : (tensor<1x1024xf32, #pld.dist>) -> tensor<1x1024xf32, #pld.dist>
  return
}

func.func @odd() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 4088 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "odd_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> tensor<1x1022xf32, #pld.dist>
  %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">, mode = "auto"} : (tensor<1x1022xf32, #pld.dist>) -> tensor<1x1022xf32, #pld.dist>
  return
}

func.func @signal() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 4096 : i64
  %sbytes = arith.constant 8 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "sig_data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> tensor<1x1024xf32, #pld.dist>
  %sbuf = "pld.tensor_alloc_window_buffer"(%sbytes) {name = "sig_buf"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> tensor<2x1xi32, #pld.dist>
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "auto"} : (tensor<1x1024xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<1x1024xf32, #pld.dist>
  return
}
