// A signal too small for the rank count is refused before the run, and the
// shape the message asks for is one the collective takes on its rail: a
// HOST barrier's or reduce's signal is one-dimensional (one cell per rank),
// so on 5 ranks it needs [5], not [5, 1]; written two-dimensional, as an
// allgather may take it, the advice keeps two dimensions.
//
// RUN: split-file %s %t
// RUN: not pld-run %t/barrier.mlir --ranks 5 2>&1 | FileCheck %s --check-prefix=BARRIER
// BARRIER: barrier.mlir:5:8: error: the signal of pld.tensor_barrier (s) is [3]; on 5 ranks it needs at least [5]{{$}}
// RUN: not pld-run %t/reduce.mlir --ranks 5 2>&1 | FileCheck %s --check-prefix=REDUCE
// REDUCE: reduce.mlir:7:8: error: the signal of pld.tensor_reduce (s) is [3]; on 5 ranks it needs at least [5]{{$}}
// RUN: not pld-run %t/allgather.mlir --ranks 5 2>&1 | FileCheck %s --check-prefix=ALLGATHER
// ALLGATHER: allgather.mlir:11:8: error: the signal of pld.tensor_allgather (s) is [3, 1]; on 5 ranks it needs at least [5, 1]{{$}}
// RUN: not pld-run %t/allgather.mlir --ranks 5 --check 2>&1 | FileCheck %s --check-prefix=ALLGATHER
// One kernel says the same with --check as without (it said "--check
// cannot compare pld.tensor_allgather: no golden: the target ... on 5
// ranks it needs 5 rows", the golden's view of the same fault):
// RUN: not pld-run %t/kernel.mlir --ranks 5 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: not pld-run %t/kernel.mlir --ranks 5 --check 2>&1 | FileCheck %s --check-prefix=KERNEL
// KERNEL: kernel.mlir:2:8: error: the signal of pld.tensor_allgather (s) is [3, 1]; on 5 ranks it needs at least [5, 1]{{$}}
// KERNEL-NOT: no golden
// mode = "auto" is checked as the schedule it chooses: a ring-shaped
// signal [6, 4] makes it the ring on 4 ranks, and on 2 or 5 ranks the ring
// is refused before the run (it ran, wrongly, before), saying who chose it.
// RUN: not pld-run %t/auto.mlir --ranks 2 --check 2>&1 | FileCheck %s --check-prefix=AUTO2
// AUTO2: auto.mlir:2:8: error: the signal of pld.tensor_allreduce (s) is [6, 4]; on 2 ranks it needs exactly [2, 2] (mode "ring" was chosen by mode = "auto")
// RUN: not pld-run %t/auto.mlir --ranks 5 2>&1 | FileCheck %s --check-prefix=AUTO5
// AUTO5: auto.mlir:2:8: error: the signal of pld.tensor_allreduce (s) is [6, 4]; on 5 ranks it needs exactly [8, 5] (mode "ring" was chosen by mode = "auto")
// A mode edited by hand after the choice (the record says two_shot, the
// op ring) is the writer's: its refusal names no choice (it said "(mode
// "ring" was chosen by mode = "auto")", algo23 LOW-4).
// RUN: not pld-run %t/edited.mlir --ranks 5 2>&1 | FileCheck %s --check-prefix=EDITED
// EDITED: edited.mlir:2:8: error: the signal of pld.tensor_allreduce (s) is [6, 4]; on 5 ranks it needs exactly [8, 5]{{$}}
// A ring on one rank has no steps: no signal serves it (the advice was
// `exactly [0, 1]`, a shape nothing accepts).
// RUN: not pld-run %t/auto.mlir --ranks 1 2>&1 | FileCheck %s --check-prefix=AUTO1
// AUTO1: auto.mlir:2:8: error: the signal of pld.tensor_allreduce (s) is [6, 4]; on 1 rank it needs 2 ranks or more: a ring of one rank has no steps (mode "ring" was chosen by mode = "auto")
// RUN: pld-run %t/auto.mlir --ranks 4 --check | FileCheck %s --check-prefix=AUTO4
// AUTO4: #  0 pld.tensor_allreduce 4 256 64 f32 sum - {{.*}} 0{{$}}
// A HOST allreduce's lanes serve its blocks (core_num = 2): the advice
// keeps them ([5, 1] was refused next for lanes), and it runs.
// RUN: not pld-run %t/lanes.mlir --ranks 5 2>&1 | FileCheck %s --check-prefix=LANES
// An InCore all_to_all_v launches no blocks: its advice says rows only.
// RUN: not pld-run %t/a2av.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=A2AV
// A2AV: a2av.mlir:2:8: error: the signal of pld.tensor_all_to_all_v (sig) is [4, 1]; on 2 ranks it needs one row per rank, [2, 1]{{$}}
// LANES: lanes.mlir:8:8: error: the signal of pld.tensor_allreduce (s) is [4, 2]; on 5 ranks it needs at least [5, 2]{{$}}
// RUN: sed 's/4x2xi32/5x2xi32/g; s/constant 32 : i64/constant 40 : i64/' %t/lanes.mlir > %t/lanes5.mlir
// RUN: pld-run %t/lanes5.mlir --ranks 5 --check | FileCheck %s --check-prefix=LANES5
// LANES5: #  0 pld.tensor_allreduce 5 256 64 f32 sum - {{.*}} 0{{$}}
// What it asks for runs:
// RUN: sed 's/tensor<3xi32/tensor<5xi32/g' %t/barrier.mlir > %t/barrier5.mlir
// RUN: pld-run %t/barrier5.mlir --ranks 5 | FileCheck %s --check-prefix=RUNS
// RUNS: @main on 5 devices: 1 collective call, finished in

//--- barrier.mlir
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c = arith.constant 64 : i64
  %b = "pld.tensor_alloc_window_buffer"(%c) {name = "s"} : (i64) -> !pld.ptr
  %s = "pld.tensor_window"(%b) : (!pld.ptr) -> tensor<3xi32, #pld.dist>
  %r = "pld.tensor_barrier"(%s) : (tensor<3xi32, #pld.dist>) -> tensor<3xi32, #pld.dist>
  return
}

//--- reduce.mlir
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c = arith.constant 64 : i64
  %b = "pld.tensor_alloc_window_buffer"(%c) {name = "s"} : (i64) -> !pld.ptr
  %bd = "pld.tensor_alloc_window_buffer"(%c) {name = "d"} : (i64) -> !pld.ptr
  %s = "pld.tensor_window"(%b) : (!pld.ptr) -> tensor<3xi32, #pld.dist>
  %d = "pld.tensor_window"(%bd) : (!pld.ptr) -> tensor<16xf32, #pld.dist>
  %r = "pld.tensor_reduce"(%d, %s) {op = #pld.reduce_op<"sum">, root = 0 : i64} : (tensor<16xf32, #pld.dist>, tensor<3xi32, #pld.dist>) -> tensor<16xf32, #pld.dist>
  return
}

//--- allgather.mlir
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %b0c = arith.constant 28 : i64
  %b0 = "pld.tensor_alloc_window_buffer"(%b0c) {name = "i"} : (i64) -> !pld.ptr
  %i = "pld.tensor_window"(%b0) : (!pld.ptr) -> tensor<1x7xf32, #pld.dist>
  %b1c = arith.constant 84 : i64
  %b1 = "pld.tensor_alloc_window_buffer"(%b1c) {name = "t"} : (i64) -> !pld.ptr
  %t = "pld.tensor_window"(%b1) : (!pld.ptr) -> tensor<3x7xf32, #pld.dist>
  %b2c = arith.constant 12 : i64
  %b2 = "pld.tensor_alloc_window_buffer"(%b2c) {name = "s"} : (i64) -> !pld.ptr
  %s = "pld.tensor_window"(%b2) : (!pld.ptr) -> tensor<3x1xi32, #pld.dist>
  %r = "pld.tensor_allgather"(%i, %t, %s) : (tensor<1x7xf32, #pld.dist>, tensor<3x7xf32, #pld.dist>, tensor<3x1xi32, #pld.dist>) -> tensor<3x7xf32, #pld.dist>
  return
}

//--- edited.mlir
func.func @k(%d: tensor<1x64xf32, #pld.dist>, %s: tensor<6x4xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "ring", pld.auto_mode = {chosen = "two_shot", two_shot_ns = 1000 : i64, ring_ns = 2000 : i64}} : (tensor<1x64xf32, #pld.dist>, tensor<6x4xi32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  return
}
//--- auto.mlir
func.func @k(%d: tensor<1x64xf32, #pld.dist>, %s: tensor<6x4xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "auto"} : (tensor<1x64xf32, #pld.dist>, tensor<6x4xi32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  return
}

//--- lanes.mlir
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %b = arith.constant 256 : i64
  %sb = arith.constant 32 : i64
  %db = "pld.tensor_alloc_window_buffer"(%b) {name = "d"} : (i64) -> !pld.ptr
  %d = "pld.tensor_window"(%db) : (!pld.ptr) -> tensor<1x64xf32, #pld.dist>
  %ss = "pld.tensor_alloc_window_buffer"(%sb) {name = "s"} : (i64) -> !pld.ptr
  %s = "pld.tensor_window"(%ss) : (!pld.ptr) -> tensor<4x2xi32, #pld.dist>
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, core_num = 2 : i64} : (tensor<1x64xf32, #pld.dist>, tensor<4x2xi32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  return
}

//--- a2av.mlir
func.func @k(%inp: tensor<8x5xf32>, %data: tensor<8x5xf32, #pld.dist>, %sig: tensor<4x1xi32, #pld.dist>, %sc: tensor<4xi32>, %rc: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_all_to_all_v"(%inp, %data, %sig, %sc, %rc) : (tensor<8x5xf32>, tensor<8x5xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>, tensor<4xi32>, tensor<4x1xi32, #pld.dist>) -> tensor<8x5xf32, #pld.dist>
  return
}

//--- kernel.mlir
func.func @k(%i: tensor<1x7xf32>, %t: tensor<3x7xf32, #pld.dist>, %s: tensor<3x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allgather"(%i, %t, %s) : (tensor<1x7xf32>, tensor<3x7xf32, #pld.dist>, tensor<3x1xi32, #pld.dist>) -> tensor<3x7xf32, #pld.dist>
  return
}
