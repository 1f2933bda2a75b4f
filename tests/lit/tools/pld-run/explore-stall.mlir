// Explore mode: a schedule whose running thread makes no device call
// (rank 0 loops without notifying, waiting or copying) is named with its
// seed and stops the run with status 3 after --deadline without a
// scheduling decision; while a schedule runs, a progress line every 2 s.
// It used to print nothing until --time-limit (600 s by default). A run
// that reaches --time-limit says which schedule it was in and what was
// explored before.
//
// RUN: sh -c 'pld-run %s --ranks 2 --explore 5 --deadline 3 2> %t.err; test $? -eq 3'
// RUN: FileCheck %s --input-file=%t.err
// RUN: sh -c 'pld-run %S/../../../../examples/ring_allreduce.mlir --ranks 4 --explore 100000000 --time-limit 10 2> %t.limit; test $? -eq 3'
// RUN: FileCheck %s --check-prefix=LIMIT --input-file=%t.limit
//
// CHECK: pld-run: explored 0 of 5 schedules of @spin on 2 ranks; schedule 0 running for {{[0-9]+}}s...
// CHECK: pld-run: error: schedule 0 of @spin on 2 ranks (--replay 0): no device call for {{[0-9.]+}}s (--deadline 3.0s): a simulated thread loops without notifying, waiting or copying, or computes longer than that between two, which explore mode cannot schedule around; stopped; explored 0 of 5 schedules of @spin on 2 ranks
// LIMIT: pld-run: error: --time-limit (10.0s) reached {{during schedule [0-9]+ of @ring_allreduce on 4 ranks \(--replay [0-9]+\)|while exploring @ring_allreduce}}; explored {{[0-9]+}} of 100000000 schedules of @ring_allreduce on 4 ranks, all clean

func.func @spin(%data: tensor<1x64xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%data) : (tensor<1x64xf32, #pld.dist>) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %first = arith.cmpi eq, %me, %zero : i32
  %n = scf.while (%i = %zero) : (i32) -> i32 {
    scf.condition(%first) %i : i32
  } do {
  ^bb0(%j: i32):
    %k = arith.addi %j, %one : i32
    scf.yield %k : i32
  }
  return
}
