// pld-run --check on a program: a call --check cannot compare with a golden
// is an error (exit status 1, `pld-run: error: <call's place>: --check
// cannot compare <op>: <why>` on standard error, the reason on the call's
// line too), as it is for one kernel; before, the call's line gave the
// reason and the run exited 0. Here a kernel holds two allreduces (the
// golden is that of one collective). Without --check the run is fine; a
// barrier, which has no numeric result, is not such a call (summary.mlir).
// Under --explore the same is a finding of every schedule.
//
// RUN: not pld-run %s --ranks 2 --check > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.out
// RUN: FileCheck %s --input-file=%t.err --check-prefix=ERR
// RUN: pld-run %s --ranks 2 | FileCheck %s --check-prefix=NOCHECK
// RUN: not pld-run %s --ranks 2 --check --explore 2 | FileCheck %s --check-prefix=EXPLORE

// CHECK: pld.tensor_allreduce at {{.*}}check-uncheckable.mlir:[[#]]:8 in @twice (called at {{.*}}check-uncheckable.mlir:[[#CALL:]]:3): f32 x 64 (sum, mesh), {{.*}}: @twice has 2 collectives; --check needs exactly one
// ERR-COUNT-1: pld-run: error: {{.*}}check-uncheckable.mlir:[[#]]:3: --check cannot compare pld.tensor_allreduce: @twice has 2 collectives; --check needs exactly one
// ERR-NOT: --check cannot compare
// NOCHECK: pld.tensor_allreduce at {{.*}} in @twice {{.*}}: not checked (run with --check)
// EXPLORE: schedule 0 (--replay 0): --check cannot compare pld.tensor_allreduce at {{.*}}check-uncheckable.mlir:{{[0-9]+}}:3: @twice has 2 collectives; --check needs exactly one
// EXPLORE: 2 schedules explored {{.*}}: 1 finding

!pair = tensor<1x64xf32, #pld.dist>
!signal = tensor<2x1xi32, #pld.dist>

func.func @twice(%pair: !pair, %signal: !signal)
    attributes {pld.kind = #pld.func_kind<"incore">} {
  %a = "pld.tensor_allreduce"(%pair, %signal) {op = #pld.reduce_op<"sum">} : (!pair, !signal) -> !pair
  %b = "pld.tensor_allreduce"(%a, %signal) {op = #pld.reduce_op<"sum">} : (!pair, !signal) -> !pair
  return
}

func.func @step(%pair: !pair, %signal: !signal)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @twice(%pair, %signal) : (!pair, !signal) -> ()
  return
}

func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %pair_bytes = arith.constant 256 : i64
  %signal_bytes = arith.constant 8 : i64
  %pbuf = "pld.tensor_alloc_window_buffer"(%pair_bytes) {name = "pair"} : (i64) -> !pld.ptr
  %sbuf = "pld.tensor_alloc_window_buffer"(%signal_bytes) {name = "signal"} : (i64) -> !pld.ptr
  %pair = "pld.tensor_window"(%pbuf) : (!pld.ptr) -> !pair
  %signal = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> !signal
  scf.for %r = %c0 to %c2 step %c1 {
    "pld.dispatch"(%r) ({
      func.call @step(%pair, %signal) : (!pair, !signal) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}
